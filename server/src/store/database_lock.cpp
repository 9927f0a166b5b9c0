#include "store/database_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace tengen::store {

DatabaseLock::DatabaseLock(const std::string& path) {
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) {
    throw std::runtime_error("cannot open the database " + path + ": " + std::strerror(errno));
  }
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    ::close(fd_);
    fd_ = -1;
    if (error == EWOULDBLOCK) {
      throw std::runtime_error(
          "another tengen-server is already serving the database " + path +
          ": stop it first, or give this one its own file with --database (or TENGEN_DATABASE)");
    }
    throw std::runtime_error("cannot lock the database " + path + ": " + std::strerror(error));
  }
}

DatabaseLock::~DatabaseLock() {
  if (fd_ >= 0) ::close(fd_);  // closing releases the lock
}

}  // namespace tengen::store

#pragma once

// A real PostgreSQL (Debian's postgresql-15) for one test process: initdb into a temporary
// directory and pg_ctl start, listening on a Unix socket in that directory only (no TCP port, so
// parallel test processes never collide); stopped and removed at exit. Each test takes a database
// of its own from it. PostgreSQL refuses to run as root: as root, the server runs as the
// `postgres` account the Debian package creates, and the directory is handed to it.
#include <pwd.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>

namespace tengen::testing {

class TempPostgres {
 public:
  static constexpr const char* kBin = "/usr/lib/postgresql/15/bin/";

  // The process's cluster, started on first use.
  static TempPostgres& instance() {
    static TempPostgres cluster;
    return cluster;
  }

  // A new, empty database; its libpq connection string.
  std::string new_database() {
    static std::atomic<int> next{0};
    const std::string name = "t" + std::to_string(++next);
    run(std::string("/usr/bin/psql -q -h ") + dir_ + " -U tengen -d postgres -c 'CREATE DATABASE " +
        name + "'");
    return conninfo(name);
  }
  std::string conninfo(const std::string& database) const {
    return "host=" + dir_ + " user=tengen dbname=" + database;
  }
  // The same as a URI, as the server's --database takes it.
  std::string new_database_uri() {
    const std::string conninfo = new_database();
    const std::string name = conninfo.substr(conninfo.rfind('=') + 1);
    return "postgresql://tengen@/" + name + "?host=" + dir_;
  }

  TempPostgres(const TempPostgres&) = delete;
  TempPostgres& operator=(const TempPostgres&) = delete;

  // A cluster of its own, for a test that stops and restarts it (tests/server/faults_test.cpp);
  // the socket directory, and so every connection string, stays the same across restarts.
  static std::unique_ptr<TempPostgres> own() {
    return std::unique_ptr<TempPostgres>(new TempPostgres);
  }
  ~TempPostgres() {
    std::system(
        (as_ + kBin + "pg_ctl -D " + dir_ + "/data -m immediate -w stop > /dev/null 2>&1").c_str());
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }
  // The faults an operator meets: a fast restart (sessions ended, a checkpoint, started again),
  // a crash-like stop (no checkpoint: recovery at the next start), and a start.
  void restart_fast() { pg_ctl("-m fast -w restart"); }
  void stop_immediate() { pg_ctl("-m immediate -w stop"); }
  void stop_fast() { pg_ctl("-m fast -w stop"); }
  void start() { pg_ctl("-w start"); }

 private:
  void pg_ctl(const std::string& what) {
    run(as_ + kBin + "pg_ctl -D " + dir_ + "/data -l " + dir_ + "/log " + options() + " " + what);
  }
  std::string options() const {
    // fsync off: the tests kill servers of ours, and PostgreSQL's immediate stop is recovered from
    // its WAL in the page cache (the machine does not lose power).
    return "-o \"-c listen_addresses='' -k " + dir_ + " -c fsync=off\"";
  }

  TempPostgres() {
    char pattern[] = "/tmp/tengen-pg-XXXXXX";
    if (!mkdtemp(pattern)) throw std::runtime_error("cannot make a temporary directory");
    dir_ = pattern;
    if (geteuid() == 0) {
      const passwd* pg = getpwnam("postgres");
      if (!pg) throw std::runtime_error("running as root, and there is no postgres account");
      if (chown(dir_.c_str(), pg->pw_uid, pg->pw_gid) != 0)
        throw std::runtime_error("cannot hand " + dir_ + " to postgres");
      as_ = "/usr/sbin/runuser -u postgres -- ";
    }
    run(as_ + kBin + "initdb -D " + dir_ + "/data -A trust -U tengen --no-sync -E UTF8 --locale=C");
    pg_ctl("-w start");
  }

  void run(const std::string& command) {
    const std::string quiet = command + " > " + dir_ + "/command.log 2>&1";
    if (std::system(quiet.c_str()) != 0) {
      std::ifstream log(dir_ + "/command.log");
      std::stringstream out;
      out << log.rdbuf();
      throw std::runtime_error("'" + command + "' failed: " + out.str());
    }
  }

  std::string dir_;
  std::string as_;  // the prefix that runs a command as postgres, when we are root
};

}  // namespace tengen::testing

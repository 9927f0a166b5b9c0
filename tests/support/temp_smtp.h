#pragma once

// A real SMTP server (tests/support/smtp_sink.py, on Debian's python3-aiosmtpd) on 127.0.0.1 and
// a port it picks, keeping every message it accepts in a Maildir that the test reads. The mail
// tests send to it through libcurl, as the server sends to an operator's relay (docs/mail.md).
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/child_start.h"
#include "support/paths.h"

namespace tengen::testing {

// One message as received: its headers (the last of each name) and its body, decoded from
// quoted-printable.
struct ReceivedMail {
  std::map<std::string, std::string> headers;
  std::string body;
  std::string raw;

  std::string header(const std::string& name) const {
    const auto it = headers.find(name);
    return it == headers.end() ? "" : it->second;
  }
  // The first URL in the body that starts with `prefix`, up to the end of its line or a space.
  std::string link(const std::string& prefix) const {
    const auto at = body.find(prefix);
    if (at == std::string::npos) return "";
    const auto end = body.find_first_of(" \n\r", at);
    return body.substr(at, end == std::string::npos ? std::string::npos : end - at);
  }
};

class TempSmtp {
 public:
  TempSmtp() {
    char pattern[] = "/tmp/tengen-smtp-XXXXXX";
    if (!mkdtemp(pattern)) throw std::runtime_error("cannot make a temporary directory");
    dir_ = pattern;
    start();
  }
  ~TempSmtp() {
    stop();
    std::filesystem::remove_all(dir_);
  }
  TempSmtp(const TempSmtp&) = delete;
  TempSmtp& operator=(const TempSmtp&) = delete;

  int port() const { return port_; }
  std::string url() const { return "smtp://127.0.0.1:" + std::to_string(port_); }

  // The relay goes away (a mail sent now fails and waits); restart() brings it back on another
  // port.
  void stop() {
    if (pid_ <= 0) return;
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }
  void restart() { start(); }

  // The messages received since the last call, oldest first; they are taken out of the Maildir.
  std::vector<ReceivedMail> take() {
    std::vector<std::filesystem::path> files;
    const auto fresh = std::filesystem::path(dir_) / "maildir" / "new";
    if (std::filesystem::exists(fresh)) {
      for (const auto& e : std::filesystem::directory_iterator(fresh)) files.push_back(e.path());
    }
    std::sort(files.begin(), files.end(), [](const auto& a, const auto& b) {
      const auto ta = std::filesystem::last_write_time(a);
      const auto tb = std::filesystem::last_write_time(b);
      return ta != tb ? ta < tb : a < b;
    });
    std::vector<ReceivedMail> out;
    for (const auto& f : files) {
      std::ifstream in(f, std::ios::binary);
      out.push_back(parse(
          std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>())));
      std::filesystem::remove(f);
    }
    return out;
  }

  static ReceivedMail parse(const std::string& raw) {
    ReceivedMail m;
    m.raw = raw;
    std::string text;
    for (const char c : raw)
      if (c != '\r') text += c;
    const auto split = text.find("\n\n");
    const std::string head = text.substr(0, split);
    std::string key;
    std::size_t at = 0;
    while (at < head.size()) {
      auto end = head.find('\n', at);
      if (end == std::string::npos) end = head.size();
      const std::string line = head.substr(at, end - at);
      if (!line.empty() && (line[0] == ' ' || line[0] == '\t') && !key.empty()) {
        m.headers[key] += line;  // a folded header goes on
      } else if (const auto colon = line.find(':'); colon != std::string::npos) {
        key = line.substr(0, colon);
        m.headers[key] = line.substr(std::min(line.size(), colon + 2));
      }
      at = end + 1;
    }
    const std::string body = split == std::string::npos ? "" : text.substr(split + 2);
    for (std::size_t i = 0; i < body.size(); ++i) {  // quoted-printable
      if (body[i] == '=' && i + 1 < body.size() && body[i + 1] == '\n') {
        ++i;
      } else if (body[i] == '=' && i + 2 < body.size()) {
        m.body += static_cast<char>(std::stoi(body.substr(i + 1, 2), nullptr, 16));
        i += 2;
      } else {
        m.body += body[i];
      }
    }
    return m;
  }

 private:
  void start() {
    const auto started = start_python(dir_, paths::smtp_sink(), {dir_ + "/maildir"});
    pid_ = started.pid;
    port_ = started.port;
    if (pid_ < 0) {
      throw std::runtime_error(
          "the SMTP sink did not start (is Debian's python3-aiosmtpd installed? "
          "scripts/install-deps)");
    }
  }

  std::string dir_;
  int port_ = -1;
  pid_t pid_ = -1;
};

}  // namespace tengen::testing

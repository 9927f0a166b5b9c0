#pragma once

#include <chrono>
#include <optional>
#include <string>

namespace tengen::mail {

// Why a relay did not take a mail; permanent when it refused the recipient for good (SMTP 550,
// 551, 553: no such mailbox), so that it is not tried again.
struct SendFailure {
  std::string why;
  bool permanent = false;
};

// The operator's SMTP relay (docs/mail.md), spoken to with libcurl: one connection a mail, on
// the mailer's own thread, never in a request's path.
class SmtpRelay {
 public:
  struct Options {
    std::string url;  // smtp://host:587 (STARTTLS), smtps://host:465 (TLS from the start)
    std::string user{};
    std::string password{};
    // smtp:// only: whether the relay must offer STARTTLS (refused otherwise), or plain text is
    // fine (a relay on this machine or a private network).
    bool require_tls = true;
    std::chrono::seconds timeout{30};
  };
  explicit SmtpRelay(Options options);

  // Hands one message (compose()'s text) to the relay: nullopt once it accepted it, else why not.
  std::optional<SendFailure> send(const std::string& envelope_from, const std::string& to,
                                  const std::string& data) const;

 private:
  Options options_;
};

}  // namespace tengen::mail

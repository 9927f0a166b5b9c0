#include "mail/smtp.h"

#include <curl/curl.h>

#include <cstring>
#include <memory>
#include <mutex>

namespace tengen::mail {
namespace {

struct Reader {
  const std::string& data;
  std::size_t at = 0;
};

std::size_t read_message(char* buffer, std::size_t size, std::size_t count, void* user) {
  auto* r = static_cast<Reader*>(user);
  const std::size_t n = std::min(size * count, r->data.size() - r->at);
  std::memcpy(buffer, r->data.data() + r->at, n);
  r->at += n;
  return n;
}

}  // namespace

SmtpRelay::SmtpRelay(Options options) : options_(std::move(options)) {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

std::optional<SendFailure> SmtpRelay::send(const std::string& envelope_from, const std::string& to,
                                           const std::string& data) const {
  const std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> curl(curl_easy_init(),
                                                                 &curl_easy_cleanup);
  if (!curl) return SendFailure{"libcurl could not start"};
  CURL* c = curl.get();
  const std::string from = "<" + envelope_from + ">";
  const std::string rcpt_text = "<" + to + ">";
  const std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> rcpt(
      curl_slist_append(nullptr, rcpt_text.c_str()), &curl_slist_free_all);
  Reader reader{data};
  char error[CURL_ERROR_SIZE] = {};
  curl_easy_setopt(c, CURLOPT_URL, options_.url.c_str());
  curl_easy_setopt(c, CURLOPT_ERRORBUFFER, error);
  curl_easy_setopt(c, CURLOPT_MAIL_FROM, from.c_str());
  curl_easy_setopt(c, CURLOPT_MAIL_RCPT, rcpt.get());
  curl_easy_setopt(c, CURLOPT_UPLOAD, 1L);
  curl_easy_setopt(c, CURLOPT_READFUNCTION, &read_message);
  curl_easy_setopt(c, CURLOPT_READDATA, &reader);
  curl_easy_setopt(c, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(data.size()));
  curl_easy_setopt(c, CURLOPT_TIMEOUT, static_cast<long>(options_.timeout.count()));
  curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 10L);
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);  // a thread of a server: no SIGALRM
  curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "smtp,smtps");
  if (!options_.url.starts_with("smtps://"))
    curl_easy_setopt(c, CURLOPT_USE_SSL, options_.require_tls ? CURLUSESSL_ALL : CURLUSESSL_NONE);
  if (!options_.user.empty()) {
    curl_easy_setopt(c, CURLOPT_USERNAME, options_.user.c_str());
    curl_easy_setopt(c, CURLOPT_PASSWORD, options_.password.c_str());
  }
  const CURLcode code = curl_easy_perform(c);
  if (code == CURLE_OK) return std::nullopt;
  long response = 0;
  curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &response);
  std::string why = error[0] ? error : curl_easy_strerror(code);
  if (response) why += " (SMTP " + std::to_string(response) + ")";
  // No such mailbox, or not one this relay takes: for good. Others (authentication, a full
  // queue, a lost connection) may pass later.
  return SendFailure{why, response == 550 || response == 551 || response == 553};
}

}  // namespace tengen::mail

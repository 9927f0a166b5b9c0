#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

// Mail as it goes over SMTP (RFC 5322, MIME): plain UTF-8 text in quoted-printable, so that any
// relay carries it unchanged. Written here rather than with curl's MIME builder, which always
// makes a multipart message (a needless wrapper around one text part, and worse in plain readers).
namespace tengen::mail {

// Why an address cannot be used, if it cannot: one '@', a local part and a domain with a dot, at
// most 254 bytes, no spaces, control characters or brackets (nothing that could end a header).
std::optional<std::string> address_problem(std::string_view address);

// The address in a From line: "Tengen <go@example.org>" gives "go@example.org"; a bare address
// is itself.
std::string bare_address(std::string_view from);

struct Message {
  std::string from;               // "Tengen <go@example.org>"
  std::string to;                 // an address
  std::string subject;            // UTF-8
  std::string body;               // UTF-8, lines separated by '\n'
  std::string unsubscribe_url{};  // the one-click URL (RFC 8058), if any
  std::int64_t date_ms = 0;       // Unix ms
  std::string message_id;         // unique, without brackets: "<random>@<domain>"
};

// The message's text, lines ending in CRLF, ready for SMTP's DATA.
std::string compose(const Message& m);

// The body's lines in quoted-printable (RFC 2045 6.7), at most 76 characters a line.
std::string quoted_printable(std::string_view text);
// A header value: as it is when printable ASCII, else an RFC 2047 encoded word (UTF-8, base64).
std::string header_text(std::string_view text);
// An RFC 5322 date: "Thu, 26 Nov 2026 06:00:00 +0000".
std::string rfc5322_date(std::int64_t unix_ms);

}  // namespace tengen::mail

#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

// How a message is described for the wire: its type name and its fields, each a JSON key bound
// to a member of the struct, with what an empty value means and, for what clients send, a check.
// messages.h describes every message this way, next to its struct; the codec (codec.cpp), its
// strict reader of client messages and its lenient reader of server messages are written once
// over these descriptions, so that a message is defined in one place. Adding a message: its struct,
// its Wire<> specialisation and its place in the variant (messages.h), then its handler.
namespace tengen::protocol {

// Specialised for every described type: `fields`, a tuple of wire::Field, and for a message
// `type`, its name on the wire. A struct without a description is a value with a codec of its
// own (game and tournament settings: settings.cpp, tournament.cpp; a game's result, the engine's
// Result, travels in its SGF form).
template <class T>
struct Wire;

// Specialised for every enum on the wire: `names`, an array of {name, value} pairs, and
// optionally `fallback`, what a client reads for a name a newer server added (without one, a
// message with an unknown name is not read).
template <class E>
struct WireNames;

struct TableByHand;  // messages.h

namespace wire {

// What an empty field means.
enum class Empty : std::uint8_t {
  Required,   // a plain field: a client must send it
  Defaulted,  // a plain field a client may leave out: it keeps the struct's default
  Omitted,    // an std::optional: left out of the message when empty
  Null,       // an std::optional: written as null when empty
};

template <class M>
struct ValueOf {
  using type = M;
};
template <class M>
struct ValueOf<std::optional<M>> {
  using type = M;
};

// A check of a value a client sent: empty when it is fine, otherwise what is wrong with it,
// as it reads after "field 'name' " ("must be a positive id").
template <class M>
using Check = std::string (*)(const typename ValueOf<M>::type&);

template <class M>
inline constexpr bool kOptional = false;
template <class M>
inline constexpr bool kOptional<std::optional<M>> = true;

template <class S, class M>
struct Field {
  std::string_view name;
  M S::*member;
  Empty empty;
  Check<M> check;
};

template <class S, class M>
constexpr Field<S, M> field(std::string_view name, M S::*member, Check<M> check = nullptr) {
  return {name, member, kOptional<M> ? Empty::Omitted : Empty::Required, check};
}
template <class S, class M>
constexpr Field<S, M> field(std::string_view name, M S::*member, Empty empty,
                            Check<M> check = nullptr) {
  return {name, member, empty, check};
}

template <class E>
concept Enum = requires {
  WireNames<E>::names;
};

// An enum value's name on the wire ("?" for a value without one).
template <Enum E>
constexpr std::string_view name(E value) {
  for (const auto& [text, v] : WireNames<E>::names) {
    if (v == value) return text;
  }
  return "?";
}
// The value of a name, if it has one.
template <Enum E>
constexpr std::optional<E> parse(std::string_view text) {
  for (const auto& [t, value] : WireNames<E>::names) {
    if (t == text) return value;
  }
  return std::nullopt;
}

// The checks of what clients send (codec.cpp).
std::string positive_id(const std::int64_t& id);
std::string positive_number(const int& n);
std::string vertex(const std::string& text);          // 1 to 4 bytes: "D4", "T19", "pass"
std::string chat_text(const std::string& text);       // 1 to 1,000 bytes
std::string nigiri_seed(const std::string& text);     // 1 to 64 bytes
std::string user_name(const std::string& text);       // 1 to 40 bytes
std::string odd_or_even(const std::string& text);     // a nigiri guess
std::string think_time(const std::int64_t& ms);       // 0 to 2^40 ms
std::string rank(const std::string& text);            // "20k", "3d"
std::string node_id(const std::int64_t& id);          // a review's node: 0 (the root) or more
std::string comment_text(const std::string& text);    // 0 to 4,000 bytes
std::string decline_reason(const std::string& text);  // 0 to 200 bytes
std::string mark_label(const std::string& text);      // 1 to 8 bytes
std::string quick_match_size(const int& size);        // 9, 13 or 19
// A tournament player without an account (docs/tournaments.md, "Over the board"):
std::string person_name(const std::string& text);     // 1 to 40 bytes, no control characters
std::string club_name(const std::string& text);       // 1 to 10 bytes, no control characters
std::string country_code(const std::string& text);    // two letters (ISO 3166): "NL", "de"
std::string egd_pin(const std::string& text);         // the EGD's PIN: 8 digits
std::string aga_id(const std::string& text);          // the AGA's member number: 1 to 8 digits
std::string printable_text(const std::string& text);  // no control characters (may be empty)
// Table numbers of a round: at most 1,000, each positive, none twice.
std::string table_numbers(const std::vector<int>& tables);
// A tournament player: an account's id (positive) or a player without an account's (negative).
std::string player_id(const std::int64_t& id);
std::string player_ids(const std::vector<std::int64_t>& ids);        // at most 1,000, none twice
std::string handicap(const int& stones);                             // 0 to 9
std::string tables_by_hand(const std::vector<TableByHand>& tables);  // at most 500
// At most 50 lines of conditional moves, each of 1 to 400 bytes.
std::string conditional_lines(const std::vector<std::string>& lines);

}  // namespace wire
}  // namespace tengen::protocol

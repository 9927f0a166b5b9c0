#include "groups/classes.h"

#include <algorithm>
#include <cctype>

namespace tengen {
namespace {

namespace wire = protocol::http;
using Refusal = Classes::Refusal;

Refusal not_found(std::int64_t id) {
  return {404, "not_found", "no class " + std::to_string(id)};
}
Refusal archived() {
  return {409, "class_archived", "the class is archived: it can be read, not changed"};
}

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

}  // namespace

bool Classes::may_teach(const store::UserRecord& me) {
  // A class's student teaches no class, even where anyone may teach.
  if (me.is_bot || s_.store.class_of_student(me.id)) return false;
  return s_.anyone_may_teach || me.is_admin || s_.store.is_teacher(me.id);
}

std::string Classes::password() {
  // 16 consonants and 5 vowels: a syllable is one of 80; two words of two syllables and a
  // number from 22 to 99 without 0 and 1: about 31 bits, enough behind the login limits
  // (docs/limits.md) and easy for a child to copy from a card.
  constexpr std::string_view kConsonants = "bdfghjkmnprstvwz";
  constexpr std::string_view kVowels = "aeiou";
  constexpr std::string_view kDigits = "23456789";
  const auto pick = [&](std::string_view from) {
    return from[s_.random(static_cast<std::uint32_t>(from.size()))];
  };
  std::string out;
  for (int word = 0; word < 2; ++word) {
    for (int syllable = 0; syllable < 2; ++syllable) {
      out += pick(kConsonants);
      out += pick(kVowels);
    }
    out += '-';
  }
  out += pick(kDigits);
  out += pick(kDigits);
  return out;
}

namespace {

// The Latin letters with accents of the languages a school here may write names in, as the plain
// letters an account name keeps ("Zoë" → "Zoe", "Jürgen" → "Jurgen", "Łucja" → "Lucja"); any
// other character of a name is left out. Written by hand: a table of some 90 letters is less than
// a dependency on ICU's transliterator for one field.
std::string ascii_of(std::string_view name) {
  struct Letter {
    char32_t code;
    const char* plain;
  };
  static constexpr Letter kLetters[] = {
      {U'À', "A"},  {U'Á', "A"},  {U'Â', "A"},  {U'Ã', "A"},  {U'Ä', "A"}, {U'Å', "A"},
      {U'Æ', "AE"}, {U'Ç', "C"},  {U'È', "E"},  {U'É', "E"},  {U'Ê', "E"}, {U'Ë', "E"},
      {U'Ì', "I"},  {U'Í', "I"},  {U'Î', "I"},  {U'Ï', "I"},  {U'Ð', "D"}, {U'Ñ', "N"},
      {U'Ò', "O"},  {U'Ó', "O"},  {U'Ô', "O"},  {U'Õ', "O"},  {U'Ö', "O"}, {U'Ø', "O"},
      {U'Ù', "U"},  {U'Ú', "U"},  {U'Û', "U"},  {U'Ü', "U"},  {U'Ý', "Y"}, {U'Þ', "Th"},
      {U'ß', "ss"}, {U'à', "a"},  {U'á', "a"},  {U'â', "a"},  {U'ã', "a"}, {U'ä', "a"},
      {U'å', "a"},  {U'æ', "ae"}, {U'ç', "c"},  {U'è', "e"},  {U'é', "e"}, {U'ê', "e"},
      {U'ë', "e"},  {U'ì', "i"},  {U'í', "i"},  {U'î', "i"},  {U'ï', "i"}, {U'ð', "d"},
      {U'ñ', "n"},  {U'ò', "o"},  {U'ó', "o"},  {U'ô', "o"},  {U'õ', "o"}, {U'ö', "o"},
      {U'ø', "o"},  {U'ù', "u"},  {U'ú', "u"},  {U'û', "u"},  {U'ü', "u"}, {U'ý', "y"},
      {U'þ', "th"}, {U'ÿ', "y"},  {U'Ą', "A"},  {U'ą', "a"},  {U'Ć', "C"}, {U'ć', "c"},
      {U'Č', "C"},  {U'č', "c"},  {U'Ď', "D"},  {U'ď', "d"},  {U'Ę', "E"}, {U'ę', "e"},
      {U'Ě', "E"},  {U'ě', "e"},  {U'Ğ', "G"},  {U'ğ', "g"},  {U'İ', "I"}, {U'ı', "i"},
      {U'Ł', "L"},  {U'ł', "l"},  {U'Ń', "N"},  {U'ń', "n"},  {U'Ň', "N"}, {U'ň', "n"},
      {U'Ő', "O"},  {U'ő', "o"},  {U'Œ', "OE"}, {U'œ', "oe"}, {U'Ř', "R"}, {U'ř', "r"},
      {U'Ś', "S"},  {U'ś', "s"},  {U'Ş', "S"},  {U'ş', "s"},  {U'Š', "S"}, {U'š', "s"},
      {U'Ť', "T"},  {U'ť', "t"},  {U'Ů', "U"},  {U'ů', "u"},  {U'Ű', "U"}, {U'ű', "u"},
      {U'Ź', "Z"},  {U'ź', "z"},  {U'Ż', "Z"},  {U'ż', "z"},  {U'Ž', "Z"}, {U'ž', "z"},
  };
  std::string out;
  for (std::size_t i = 0; i < name.size();) {
    const auto c = static_cast<unsigned char>(name[i]);
    if (c < 0x80) {
      out += static_cast<char>(c);
      ++i;
      continue;
    }
    // Two-byte sequences hold every letter above; longer ones are left out whole.
    std::size_t n = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 1;
    if (n == 2 && i + 1 < name.size()) {
      const char32_t code =
          (char32_t{c & 0x1Fu} << 6) | (static_cast<unsigned char>(name[i + 1]) & 0x3Fu);
      for (const auto& l : kLetters)
        if (l.code == code) out += l.plain;
    }
    i += n;
  }
  return out;
}

}  // namespace

std::optional<std::string> Classes::username_for(const std::string& name,
                                                 const std::vector<std::string>& taken) {
  // Letters, digits, - and _ of the name as typed (accents taken off, spaces become -), starting
  // with a letter.
  std::string base;
  for (const unsigned char c : ascii_of(name)) {
    if (std::isalnum(c) || c == '_' || c == '-')
      base += static_cast<char>(c);
    else if (c == ' ' && !base.empty() && base.back() != '-')
      base += '-';
  }
  while (!base.empty() && !std::isalpha(static_cast<unsigned char>(base.front())))
    base.erase(base.begin());
  if (base.size() > 16) base.resize(16);
  while (!base.empty() && base.back() == '-') base.pop_back();
  if (base.empty()) base = "student";
  const auto free = [&](const std::string& candidate) {
    return !Accounts::username_problem(candidate) &&
           std::find(taken.begin(), taken.end(), lower(candidate)) == taken.end() &&
           !s_.accounts.find_user(candidate);
  };
  if (free(base)) return base;
  for (int n = 2; n < 1000; ++n) {
    const auto candidate = base + std::to_string(n);
    if (free(candidate)) return candidate;
  }
  return std::nullopt;
}

wire::ClassView Classes::view(const store::GroupRow& g, const store::ClassRow& c,
                              std::optional<std::string> role) {
  return {Groups::summary(g, std::move(role)), c.is_protected, c.archived_at_ms,
          s_.store.count_students(g.id)};
}

std::optional<Refusal> Classes::too_fast(const store::UserRecord& me) {
  std::lock_guard lock(rate_mutex_);
  if (change_rate_.try_take(std::to_string(me.id), s_.clock.steady_now())) return std::nullopt;
  return Refusal{429, "rate_limited",
                 "you are changing classes too fast: wait a few seconds and try again"};
}

Classes::Answer<std::pair<store::GroupRow, store::ClassRow>> Classes::mine(
    std::int64_t id, const store::UserRecord& me) {
  const auto c = s_.store.class_row(id);
  const auto g = c ? s_.groups.group(id) : std::nullopt;
  if (!g) return not_found(id);
  const auto role = s_.groups.role(id, me.id);
  if (role != "owner" && role != "admin" && !me.is_admin) return not_found(id);
  return std::pair{*g, *c};
}

Classes::Made Classes::make_students(std::int64_t group, const std::vector<std::string>& names) {
  Made made{group, {}, {}};
  std::vector<std::string> taken;
  for (const auto& name : names) {
    const auto username = username_for(name, taken);
    if (!username) {
      made.skipped.emplace_back(name, "no free account name could be made from it");
      continue;
    }
    const auto pass = password();
    // Argon2id for each: about a tenth of a second per student (docs/performance.md).
    auto account = s_.accounts.create_account(*username, pass);
    if (const auto* why = std::get_if<std::string>(&account)) {
      made.skipped.emplace_back(name, *why);
      continue;
    }
    const auto& user = std::get<store::UserRecord>(account);
    taken.push_back(lower(user.username));
    s_.store.add_student(group, user.id, name, now());
    made.cards.push_back({{user.id, user.username}, name, pass});
  }
  if (s_.changed) s_.changed(group);
  return made;
}

Classes::Answer<Classes::Made> Classes::create(const store::UserRecord& me,
                                               const wire::ClassForm& form,
                                               const Groups::Limits& group_limits) {
  if (!may_teach(me))
    return Refusal{403, "not_teacher",
                   "only teachers make classes: ask the server's administrators to make you one"};
  if (auto no = too_fast(me)) return *no;
  if (static_cast<int>(form.students.size()) > limits_.students)
    return Refusal{400, "too_many_students",
                   "a class has at most " + std::to_string(limits_.students) + " students"};
  if (static_cast<int>(s_.store.owned_by(me.id).size()) >= limits_.classes_per_teacher)
    return Refusal{409, "too_many_classes",
                   "a teacher has at most " + std::to_string(limits_.classes_per_teacher) +
                       " classes (archived ones count)"};
  if (s_.groups.count() >= group_limits.groups)
    return Refusal{409, "groups_full",
                   "this server has " + std::to_string(group_limits.groups) +
                       " groups and classes, as many as it keeps: ask its administrators"};
  const auto id =
      s_.groups.create({form.name.value_or(""), form.description, "invite", me.id}, now());
  if (!id)
    return Refusal{409, "group_name_taken",
                   "a group or class is called '" + form.name.value_or("") + "' already"};
  s_.store.add_class(*id, now());
  return make_students(*id, form.students);
}

Classes::Answer<Classes::Made> Classes::add_students(std::int64_t id, const store::UserRecord& me,
                                                     const std::vector<std::string>& names) {
  auto found = mine(id, me);
  if (auto* no = std::get_if<Refusal>(&found)) return *no;
  if (auto no = too_fast(me)) return *no;
  const auto& [group, row] = std::get<0>(found);
  if (row.archived_at_ms) return archived();
  const int now_in = s_.store.count_students(id);
  if (now_in + static_cast<int>(names.size()) > limits_.students)
    return Refusal{409, "class_full",
                   "a class has at most " + std::to_string(limits_.students) +
                       " students; it has " + std::to_string(now_in)};
  return make_students(id, names);
}

std::vector<wire::ClassView> Classes::of_teacher(const store::UserRecord& me) {
  std::vector<wire::ClassView> out;
  for (const auto& c : s_.store.owned_by(me.id))
    if (const auto g = s_.groups.group(c.group_id)) out.push_back(view(*g, c, "owner"));
  return out;
}

Classes::Answer<std::pair<wire::ClassView, std::vector<wire::StudentView>>> Classes::page(
    std::int64_t id, const store::UserRecord& me) {
  auto found = mine(id, me);
  if (auto* no = std::get_if<Refusal>(&found)) return *no;
  const auto& [group, row] = std::get<0>(found);
  std::vector<wire::StudentView> students;
  for (auto& s : s_.store.students(id)) {
    students.push_back({{s.user_id, s.username},
                        s.name,
                        s.last_seen_ms,
                        s.games_finished,
                        s.games_playing,
                        std::move(s.lessons),
                        ""});
  }
  return std::pair{view(group, row, s_.groups.role(id, me.id)), std::move(students)};
}

std::optional<Refusal> Classes::set_protected(std::int64_t id, const store::UserRecord& me,
                                              bool on) {
  auto found = mine(id, me);
  if (auto* no = std::get_if<Refusal>(&found)) return *no;
  if (auto no = too_fast(me)) return *no;
  s_.store.set_protected(id, on);
  if (s_.changed) s_.changed(id);
  return std::nullopt;
}

Classes::Answer<wire::StudentCard> Classes::reset_password(std::int64_t id,
                                                           const store::UserRecord& me,
                                                           std::int64_t student) {
  auto found = mine(id, me);
  if (auto* no = std::get_if<Refusal>(&found)) return *no;
  if (auto no = too_fast(me)) return *no;
  if (s_.store.class_of_student(student) != id)
    return Refusal{404, "not_student", "the account is not one of this class's students"};
  const auto user = s_.accounts.find_user(student);
  if (!user) return Refusal{404, "not_student", "the account is gone"};
  const auto pass = password();
  if (auto why = s_.accounts.set_password(student, pass))
    return Refusal{409, "password_not_set", *why};
  std::string name = user->username;
  for (const auto& s : s_.store.students(id))
    if (s.user_id == student) name = s.name;
  return wire::StudentCard{{user->id, user->username}, name, pass};
}

Classes::Answer<Classes::Made> Classes::reset_passwords(std::int64_t id,
                                                        const store::UserRecord& me) {
  auto found = mine(id, me);
  if (auto* no = std::get_if<Refusal>(&found)) return *no;
  if (auto no = too_fast(me)) return *no;
  Made made{id, {}, {}};
  for (const auto& s : s_.store.students(id)) {
    const auto pass = password();
    if (auto why = s_.accounts.set_password(s.user_id, pass)) {
      made.skipped.emplace_back(s.name, *why);
      continue;
    }
    made.cards.push_back({{s.user_id, s.username}, s.name, pass});
  }
  return made;
}

Classes::Answer<std::int64_t> Classes::round_robin(std::int64_t id, const store::UserRecord& me,
                                                   protocol::GameSettings settings) {
  auto found = mine(id, me);
  if (auto* no = std::get_if<Refusal>(&found)) return *no;
  if (auto no = too_fast(me)) return *no;
  const auto& [group, row] = std::get<0>(found);
  if (row.archived_at_ms) return archived();
  std::vector<std::int64_t> players;
  for (const auto& s : s_.store.students(id)) players.push_back(s.user_id);
  if (players.size() < 2)
    return Refusal{409, "too_few_students", "a round robin needs two students at least"};
  protocol::TournamentSettings t;
  t.name = "Round robin: " + group.name;
  t.system = tournament::System::RoundRobin;
  settings.group = id;
  settings.handicap = 0;
  settings.automatic_handicap = false;
  settings.is_private = false;
  t.game = settings;
  t.all_rounds_at_once = settings.time.system == protocol::TimeControl::System::Correspondence;
  if (auto why = protocol::validate(t)) return Refusal{400, "bad_request", *why};
  auto made = s_.round_robin(t, me.id, players);
  if (const auto* why = std::get_if<std::string>(&made))
    return Refusal{409, "round_robin_refused", *why};
  return std::get<std::int64_t>(made);
}

std::optional<Refusal> Classes::archive(std::int64_t id, const store::UserRecord& me) {
  auto found = mine(id, me);
  if (auto* no = std::get_if<Refusal>(&found)) return *no;
  if (auto no = too_fast(me)) return *no;
  if (!s_.store.archive(id, now())) return archived();
  s_.groups.close(id, now());
  if (s_.changed) s_.changed(id);
  return std::nullopt;
}

std::optional<wire::MyClass> Classes::my_class(std::int64_t user) {
  const auto id = s_.store.class_of_student(user);
  if (!id) return std::nullopt;
  const auto c = s_.store.class_row(*id);
  const auto g = s_.groups.group(*id);
  if (!c || !g) return std::nullopt;
  return wire::MyClass{*id, g->name, c->is_protected};
}

std::optional<Refusal> Classes::finish_lesson(const store::UserRecord& me,
                                              const std::string& lesson) {
  if (auto why = wire::lesson_problem(lesson)) return Refusal{400, "bad_request", *why};
  if (!s_.store.finish_lesson(me.id, lesson, now(), limits_.lessons))
    return Refusal{
        409, "too_many_lessons",
        "an account keeps at most " + std::to_string(limits_.lessons) + " lessons finished"};
  return std::nullopt;
}

}  // namespace tengen

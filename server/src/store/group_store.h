#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "store/game_store.h"
#include "store/sql.h"

namespace tengen::store {

// A group (a club; docs/groups.md) as stored.
struct GroupRow {
  std::int64_t id = 0;
  std::string name;
  std::string description;
  std::string joining;  // open, request, invite
  std::int64_t owner_id = 0;
  std::string owner_name;
  std::int64_t created_at_ms = 0;
  std::optional<std::int64_t> closed_at_ms;
  int members = 0;  // the owner, administrators and members
  bool has_invite = false;
  bool is_class = false;  // a school's class (docs/classes.md)
};

struct NewGroup {
  std::string name;
  std::string description;
  std::string joining;
  std::int64_t owner_id = 0;
};

// One account's place in a group: owner, admin, member, pending (asked to join), banned.
struct GroupMember {
  std::int64_t user_id = 0;
  std::string name;
  bool bot = false;
  std::string role;
  std::int64_t since_ms = 0;
};

struct GroupChatRow {
  std::int64_t id = 0;
  std::int64_t group_id = 0;
  std::int64_t user_id = 0;
  std::string user_name;
  std::int64_t at_ms = 0;
  std::string text;  // empty once deleted
  bool deleted = false;
};

// A finished game between two of a group's members.
struct GroupGame {
  std::int64_t id = 0;
  std::int64_t black_id = 0;
  std::string black_name;
  std::int64_t white_id = 0;
  std::string white_name;
  std::string result;
  std::int64_t ended_at_ms = 0;
  std::string settings;  // JSON, as stored: the caller leaves out private games
};

// The groups' tables (migrations 0012_groups.sql), written once for SQLite and PostgreSQL over
// sql::Connection. Safe from any thread (one connection under a mutex).
class GroupStore {
 public:
  explicit GroupStore(std::unique_ptr<sql::Connection> db) : db_(std::move(db)) {}

  // A new group with its owner as its first member; nullopt if the name is taken (whatever its
  // case).
  std::optional<std::int64_t> create(const NewGroup& group, std::int64_t now_ms);
  std::optional<GroupRow> group(std::int64_t id);
  // Newest first, ids below page.before; closed groups too, classes not.
  std::vector<GroupRow> list(const Page& page);
  // The user's groups and their role in each (pending and banned too), newest first.
  std::vector<std::pair<GroupRow, std::string>> of_user(std::int64_t user);
  int owned_by(std::int64_t user);
  int count();
  bool update(std::int64_t id, const std::string& description, const std::string& joining);
  // The invitation link's secret (its hash), or none.
  void set_invite(std::int64_t id, const std::optional<std::string>& hash);
  std::optional<std::int64_t> group_with_invite(const std::string& hash);
  bool close(std::int64_t id, std::int64_t now_ms);
  bool remove(std::int64_t id);

  std::optional<std::string> role(std::int64_t group, std::int64_t user);
  // The user's role from now on (since now, if they had none or were pending).
  void set_role(std::int64_t group, std::int64_t user, const std::string& role,
                std::int64_t now_ms);
  bool remove_member(std::int64_t group, std::int64_t user);
  // The group handed to one of its members: they own it, its previous owner is an administrator.
  void set_owner(std::int64_t group, std::int64_t user, std::int64_t now_ms);
  // Everyone with a role, the owner first, then administrators, members, pending, banned; by
  // name within each.
  std::vector<GroupMember> members(std::int64_t group);
  int count_role(std::int64_t group, const std::string& role);
  // (group, user) for the owner, administrators and members of every group not closed: what the
  // lobby keeps in memory (groups/memberships.h).
  std::vector<std::pair<std::int64_t, std::int64_t>> memberships();

  // A chat line; the group keeps its latest `keep` lines.
  GroupChatRow add_chat(std::int64_t group, std::int64_t user, const std::string& text,
                        std::int64_t now_ms, int keep);
  // The latest lines below `before`, oldest first.
  std::vector<GroupChatRow> chat(std::int64_t group, std::optional<std::int64_t> before, int limit);
  std::optional<GroupChatRow> chat_line(std::int64_t group, std::int64_t line);
  bool delete_chat(std::int64_t group, std::int64_t line, std::int64_t by);

  // The latest finished games between members, newest first.
  std::vector<GroupGame> games(std::int64_t group, int limit);

 private:
  std::vector<GroupRow> groups_where(const std::string& where, const std::vector<sql::Value>& p);
  std::mutex mutex_;
  std::unique_ptr<sql::Connection> db_;
};

}  // namespace tengen::store

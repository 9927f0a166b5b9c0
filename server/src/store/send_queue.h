#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "store/sql.h"

// What the mail and push queues share (docs/mail.md; docs/web-client.md, "Push"): tables of the
// same columns (sent_at, failed_at, due_at, claimed_until, attempts, last_error), a row marked
// sent, a failed attempt tried again later or given up on, and the queue's counts. `table` is
// one of the stores' own table names, never anything a client sent.
namespace tengen::store::send_queue {

inline void mark_sent(sql::Connection& db, std::string_view table, std::int64_t id,
                      std::int64_t now_ms) {
  db.run("UPDATE " + std::string(table) +
             " SET sent_at = ?, attempts = attempts + 1, claimed_until = 0, last_error = ''"
             " WHERE id = ?",
         {now_ms, id});
}

// Tried again from `retry_at_ms`, or given up on (failed_at set) when there is none.
inline void mark_failed(sql::Connection& db, std::string_view table, std::int64_t id,
                        const std::string& error, std::optional<std::int64_t> retry_at_ms,
                        std::int64_t now_ms) {
  db.run("UPDATE " + std::string(table) +
             " SET attempts = attempts + 1, claimed_until = 0, last_error = ?,"
             " due_at = coalesce(?, due_at), failed_at = ? WHERE id = ?",
         {error, sql::value(retry_at_ms),
          sql::value(retry_at_ms ? std::nullopt : std::optional<std::int64_t>(now_ms)), id});
}

// Waiting, sent, given up on.
inline std::array<std::int64_t, 3> counts(sql::Connection& db, std::string_view table) {
  const auto r = db.run(
      "SELECT count(*) FILTER (WHERE sent_at IS NULL AND failed_at IS NULL),"
      " count(*) FILTER (WHERE sent_at IS NOT NULL), count(*) FILTER (WHERE failed_at IS NOT NULL)"
      " FROM " +
      std::string(table));
  return {r.integer(0, 0), r.integer(0, 1), r.integer(0, 2)};
}

}  // namespace tengen::store::send_queue

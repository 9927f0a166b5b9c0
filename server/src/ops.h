#pragma once

#include "config.h"

// One-off commands of the server binary for operators and containers (docs/operations.md).
namespace tengen {

// GET /healthz from the server listening on config.port on this machine: 0 if it answers
// 200 within 3 seconds, 1 otherwise (with the reason on stderr). Needs no curl in the image.
int health_check(const Config& config);

// Copies config.database into `to` with SQLite's online backup API, page by page, while the
// server may be writing (WAL): a consistent snapshot, unlike a file copy. 0 on success.
int backup(const Config& config, const std::string& to);

}  // namespace tengen

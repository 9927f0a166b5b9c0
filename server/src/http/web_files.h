#pragma once

#include <atomic>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rooms/worker.h"

// The web client's files as the HTTP server serves them (docs/web-client.md, "Caching"): each
// file read once per change, with an ETag (a hash of its bytes) and, for text, its gzip form made
// then and its Brotli form (at Brotli's best, ~1 MB/s) made once on a thread of its own, served
// from when it is ready; the client's version (a hash over every file) so that its assets can be
// served under versioned URLs (/v/<version>/...) that never change and are cached for good; and
// index.html with its asset URLs pointing there and every module preloaded. No sockets here.
namespace tengen::http_files {

// The encodings a request accepts (its Accept-Encoding), best first among those we make.
enum class Encoding { Identity, Gzip, Brotli };
Encoding best_encoding(std::string_view accept_encoding);
std::string_view encoding_name(Encoding e);  // "br", "gzip", or "" for identity

class WebFiles {
 public:
  explicit WebFiles(std::filesystem::path root);
  ~WebFiles();  // the Brotli not yet made is not made
  WebFiles(const WebFiles&) = delete;
  WebFiles& operator=(const WebFiles&) = delete;

  struct File {
    std::shared_ptr<const std::string> bytes;
    Encoding encoding = Encoding::Identity;
    std::string etag;  // "<hash>" for the bytes as stored; "<hash>.br" / "<hash>.gz" encoded
  };
  // A file under the root (already resolved), in the best encoding `accepted` allows and we
  // have; nullopt if it is not a readable file. Safe from any thread.
  std::optional<File> get(const std::filesystem::path& path, Encoding accepted);
  // The client as it is now: a hash over every file's path and bytes (a file changed, added or
  // removed changes it). Reads what changed since the last call.
  std::string version();
  // What a service worker keeps for the client to open offline (web/sw.js): the version, and the
  // path of every file the page may load (not index.html, which it keeps as "/", nor the worker
  // itself, nor the build's and npm's own files), relative to the root.
  struct Shell {
    std::string version;
    std::vector<std::string> files;
  };
  Shell shell();
  // index.html for `version`: its stylesheet, icon and script under /v/<version>/, and a
  // modulepreload link for every module js/app.js imports statically, and theirs (so the imports
  // do not arrive one round trip after another; a module loaded by import() waits until asked). Its
  // File (with its own ETag), as get() returns it.
  std::optional<File> index(Encoding accepted);

  // Whether `path` (under the root, resolved) is the page itself, index.html at the root, however
  // the root was written ("web", "web/", "./web").
  bool is_page(const std::filesystem::path& path) const {
    return path.lexically_normal() == (root_ / "index.html").lexically_normal();
  }
  // Whether an If-None-Match header names this file's ETag (any encoding of the same bytes).
  static bool matches(std::string_view if_none_match, const File& file);
  // Waits until the Brotli form of everything read so far is made (tests).
  void compressed();

 private:
  struct Entry {
    std::filesystem::file_time_type mtime;
    std::uintmax_t size = 0;
    std::string hash;
    std::shared_ptr<const std::string> identity, gzip, brotli;
  };
  // The file's entry, read and compressed again if it changed on disk.
  std::shared_ptr<const Entry> entry(const std::filesystem::path& path);
  static std::shared_ptr<const Entry> make(const std::filesystem::path& path, std::string bytes,
                                           std::filesystem::file_time_type mtime);
  static File pick(const Entry& e, Encoding accepted);
  // Makes the entry's Brotli form off the request's thread, then puts it in `where` (if the entry
  // is still the one there).
  template <typename Key>
  void brotli_later(std::map<Key, std::shared_ptr<const Entry>>& where, Key key,
                    std::shared_ptr<const Entry> e);

  std::filesystem::path root_;
  std::mutex mutex_;  // a leaf: the map below only, never while reading or compressing
  std::map<std::filesystem::path, std::shared_ptr<const Entry>> entries_;
  std::map<std::string, std::shared_ptr<const Entry>> indexes_;  // by version
  std::atomic<bool> stopping_ = false;
  std::unique_ptr<Worker> compressor_;  // last: it goes first, while what its jobs use is here
};

}  // namespace tengen::http_files

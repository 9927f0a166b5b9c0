#include "http/web_files.h"

#include <brotli/encode.h>
#include <sodium.h>
#include <zlib.h>

#include <algorithm>
#include <fstream>
#include <future>
#include <iterator>
#include <regex>
#include <set>
#include <sstream>
#include <vector>

namespace tengen::http_files {
namespace fs = std::filesystem;
namespace {

// Text and WebAssembly (the engine: 390 KB, 140 KB in Brotli) are worth compressing; images,
// sounds and fonts are compressed already.
bool compressible(const fs::path& path) {
  static const std::set<std::string> kText{".html", ".js",  ".mjs",  ".css",        ".json",
                                           ".svg",  ".txt", ".wasm", ".webmanifest"};
  return kText.contains(path.extension().string());
}

std::string hex_hash(std::string_view bytes) {
  unsigned char out[12];
  crypto_generichash(out, sizeof out, reinterpret_cast<const unsigned char*>(bytes.data()),
                     bytes.size(), nullptr, 0);
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex;
  for (const unsigned char c : out) {
    hex += kDigits[c >> 4];
    hex += kDigits[c & 15];
  }
  return hex;
}

// gzip (RFC 1952) at zlib's best; nullptr if it does not make the file smaller.
std::shared_ptr<const std::string> gzip(const std::string& bytes) {
  z_stream z{};
  if (deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) != Z_OK)
    return nullptr;
  std::string out(deflateBound(&z, bytes.size()), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  z.avail_in = static_cast<uInt>(bytes.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  const int done = deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  if (done != Z_STREAM_END || out.size() >= bytes.size()) return nullptr;
  return std::make_shared<const std::string>(std::move(out));
}

// Brotli (RFC 7932) at its best quality, made once per change of the file.
std::shared_ptr<const std::string> brotli(const std::string& bytes) {
  std::size_t size = BrotliEncoderMaxCompressedSize(bytes.size());
  if (size == 0) return nullptr;
  std::string out(size, '\0');
  if (!BrotliEncoderCompress(BROTLI_MAX_QUALITY, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_TEXT,
                             bytes.size(), reinterpret_cast<const uint8_t*>(bytes.data()), &size,
                             reinterpret_cast<uint8_t*>(out.data())) ||
      size >= bytes.size())
    return nullptr;
  out.resize(size);
  return std::make_shared<const std::string>(std::move(out));
}

std::optional<std::string> read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

Encoding best_encoding(std::string_view accept) {
  bool br = false, gz = false;
  while (!accept.empty()) {
    const auto comma = accept.find(',');
    auto item = accept.substr(0, comma);
    accept = comma == std::string_view::npos ? std::string_view{} : accept.substr(comma + 1);
    const auto semi = item.find(';');
    auto token = item.substr(0, semi);
    auto params = semi == std::string_view::npos ? std::string_view{} : item.substr(semi + 1);
    const auto trim = [](std::string_view s) {
      while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
      while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
      return s;
    };
    token = trim(token);
    params = trim(params);
    // "q=0" (and "q=0.0", "q=0.000") refuses the encoding.
    const bool refused =
        params.starts_with("q=0") && params.find_first_not_of("0.", 2) == std::string_view::npos;
    if (refused) continue;
    if (token == "br") br = true;
    if (token == "gzip" || token == "x-gzip") gz = true;
  }
  return br ? Encoding::Brotli : gz ? Encoding::Gzip : Encoding::Identity;
}

std::string_view encoding_name(Encoding e) {
  switch (e) {
    case Encoding::Brotli:
      return "br";
    case Encoding::Gzip:
      return "gzip";
    case Encoding::Identity:
      break;
  }
  return "";
}

WebFiles::WebFiles(fs::path root) : root_(std::move(root)), compressor_(make_thread_worker()) {}

WebFiles::~WebFiles() {
  stopping_ = true;
  compressor_.reset();  // the jobs left return at once
}

void WebFiles::compressed() {
  std::promise<void> done;
  compressor_->post([&done] { done.set_value(); });  // after every job posted before it
  done.get_future().wait();
}

std::shared_ptr<const WebFiles::Entry> WebFiles::make(const fs::path& path, std::string bytes,
                                                      fs::file_time_type mtime) {
  auto e = std::make_shared<Entry>();
  e->mtime = mtime;
  e->size = bytes.size();
  e->hash = hex_hash(bytes);
  if (compressible(path) && bytes.size() >= 256) e->gzip = gzip(bytes);
  e->identity = std::make_shared<const std::string>(std::move(bytes));
  return e;
}

template <typename Key>
void WebFiles::brotli_later(std::map<Key, std::shared_ptr<const Entry>>& where, Key key,
                            std::shared_ptr<const Entry> e) {
  if (!e->gzip) return;  // not worth compressing
  compressor_->post([this, &where, key = std::move(key), e = std::move(e)] {
    if (stopping_) return;
    auto done = std::make_shared<Entry>(*e);
    done->brotli = brotli(*e->identity);
    std::lock_guard lock(mutex_);
    if (const auto it = where.find(key); it != where.end() && it->second == e) it->second = done;
  });
}

std::shared_ptr<const WebFiles::Entry> WebFiles::entry(const fs::path& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return nullptr;
  const auto mtime = fs::last_write_time(path, ec);
  if (ec) return nullptr;
  const auto size = fs::file_size(path, ec);
  if (ec) return nullptr;
  {
    std::lock_guard lock(mutex_);
    const auto it = entries_.find(path);
    if (it != entries_.end() && it->second->mtime == mtime && it->second->size == size)
      return it->second;
  }
  auto bytes = read_file(path);  // outside the lock: two readers may both read a new file
  if (!bytes) return nullptr;
  auto made = make(path, std::move(*bytes), mtime);
  {
    std::lock_guard lock(mutex_);
    entries_[path] = made;
  }
  brotli_later(entries_, path, made);
  return made;
}

WebFiles::File WebFiles::pick(const Entry& e, Encoding accepted) {
  if (accepted == Encoding::Brotli && e.brotli) return {e.brotli, Encoding::Brotli, e.hash + ".br"};
  if (accepted != Encoding::Identity && e.gzip) return {e.gzip, Encoding::Gzip, e.hash + ".gz"};
  return {e.identity, Encoding::Identity, e.hash};
}

std::optional<WebFiles::File> WebFiles::get(const fs::path& path, Encoding accepted) {
  const auto e = entry(path);
  if (!e) return std::nullopt;
  return pick(*e, accepted);
}

std::string WebFiles::version() {
  return shell().version;
}

WebFiles::Shell WebFiles::shell() {
  std::vector<std::pair<std::string, std::string>> files;  // relative path, hash
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(root_, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_directory(ec) && it->path().filename() == "node_modules") {
      it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file(ec)) continue;
    if (const auto e = entry(it->path()))
      files.emplace_back(fs::relative(it->path(), root_, ec).generic_string(), e->hash);
  }
  std::sort(files.begin(), files.end());
  std::string all;
  for (const auto& [path, hash] : files) all += path + '\0' + hash + '\n';
  Shell shell{hex_hash(all), {}};
  static const std::set<std::string> kKept{".js",  ".css",  ".json",       ".svg",
                                           ".png", ".wasm", ".webmanifest"};
  for (const auto& [path, hash] : files) {
    const fs::path p(path);
    if (path == "sw.js" || p.filename() == "package.json" || p.filename() == "package-lock.json" ||
        !kKept.contains(p.extension().string()))
      continue;
    shell.files.push_back(path);
  }
  return shell;
}

std::optional<WebFiles::File> WebFiles::index(Encoding accepted) {
  const auto page = entry(root_ / "index.html");
  if (!page) return std::nullopt;
  const auto v = version();
  {
    std::lock_guard lock(mutex_);
    const auto it = indexes_.find(v);
    if (it != indexes_.end()) return pick(*it->second, accepted);
  }
  const std::string prefix = "/v/" + v + "/";
  // Relative references (not "#...", "/...", nor with a scheme) go under the version.
  static const std::regex kRelative(R"re(((?:href|src)=")([^"#/:][^":]*)")re");
  std::string text = std::regex_replace(*page->identity, kRelative, "$1" + prefix + "$2\"");
  // The modules the page's script imports, and theirs, statically (a page loaded later by
  // import() is not preloaded: the lobby comes first).
  std::set<std::string> modules;
  std::vector<std::string> todo{"app.js"};
  static const std::regex kImport(R"re((?:^|\n)\s*import\s[^;]*?from\s*'\./([\w-]+\.js)')re");
  while (!todo.empty()) {
    const auto name = todo.back();
    todo.pop_back();
    if (!modules.insert(name).second) continue;
    const auto module = entry(root_ / "js" / name);
    if (!module) continue;
    const std::string& code = *module->identity;
    for (auto it = std::sregex_iterator(code.begin(), code.end(), kImport);
         it != std::sregex_iterator(); ++it)
      todo.push_back((*it)[1].str());
  }
  std::string preload;
  for (const auto& m : modules)
    preload += "  <link rel=\"modulepreload\" href=\"" + prefix + "js/" + m + "\">\n";
  // Before the page's own script, after boot.js (an async module of its own that opens the
  // WebSocket at once: asked for first, it does not wait behind the preloads).
  if (const auto at = text.find("  <script type=\"module\" src="); at != std::string::npos)
    text.insert(at, preload);
  auto made = make(root_ / "index.html", std::move(text), page->mtime);
  {
    std::lock_guard lock(mutex_);
    if (indexes_.size() > 8) indexes_.clear();  // old versions: a developer editing the files
    indexes_[v] = made;
  }
  brotli_later(indexes_, v, made);
  return pick(*made, accepted);
}

bool WebFiles::matches(std::string_view if_none_match, const File& file) {
  if (if_none_match.empty()) return false;
  if (if_none_match.find('*') != std::string_view::npos) return true;
  const auto base = file.etag.substr(0, file.etag.find('.'));
  return if_none_match.find(base) != std::string_view::npos;
}

}  // namespace tengen::http_files

// The web client's files as served (http/web_files.h): the encoding a request accepts, each file
// compressed once and decoding to its bytes, ETags that follow the bytes, the client's version
// following every file, and index.html pointing its assets under that version.
#include "http/web_files.h"

#include <brotli/decode.h>
#include <gtest/gtest.h>
#include <unistd.h>
#include <zlib.h>

#include <fstream>

namespace tengen::http_files {
namespace {
namespace fs = std::filesystem;

std::string gunzip(const std::string& in, std::size_t room) {
  z_stream z{};
  EXPECT_EQ(inflateInit2(&z, 15 + 16), Z_OK);
  std::string out(room + 1024, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(inflate(&z, Z_FINISH), Z_STREAM_END);
  out.resize(z.total_out);
  inflateEnd(&z);
  return out;
}

std::string unbrotli(const std::string& in, std::size_t room) {
  std::string out(room + 1024, '\0');
  std::size_t size = out.size();
  EXPECT_EQ(BrotliDecoderDecompress(in.size(), reinterpret_cast<const uint8_t*>(in.data()), &size,
                                    reinterpret_cast<uint8_t*>(out.data())),
            BROTLI_DECODER_RESULT_SUCCESS);
  out.resize(size);
  return out;
}

class WebFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::create_directories(root_ / "js");
    write("index.html",
          "<!doctype html>\n<head>\n  <link rel=\"icon\" href=\"favicon.svg\">\n  <link "
          "rel=\"stylesheet\" href=\"style.css\">\n  <script type=\"module\" "
          "src=\"js/app.js\"></script>\n</head>\n<a href=\"#/games\">games</a> <a "
          "href=\"/api/v1/me\">me</a> <a href=\"https://example.org/x\">out</a>\n");
    std::string js = "import { b } from './board.js';\nimport {\n  c,\n} from './clock.js';\n";
    js += "const later = () => import('./late.js');\n";
    for (int i = 0; i < 200; ++i) js += "export const line" + std::to_string(i) + " = 'a stone';\n";
    write("js/app.js", js);
    write("js/board.js", "export const b = 1;\n");
    write("js/clock.js", "import { b } from './board.js';\nexport const c = b;\n");
    write("js/late.js", "export const l = 1;\n");
  }
  void TearDown() override { fs::remove_all(root_); }
  void write(const std::string& name, const std::string& text) {
    std::ofstream(root_ / name, std::ios::binary) << text;
  }
  std::string read(const std::string& name) {
    std::ifstream in(root_ / name, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }

  fs::path root_ = fs::temp_directory_path() / ("tengen-web-files-" + std::to_string(getpid()));
};

TEST(AcceptEncoding, BrotliBeforeGzipAndQZeroRefuses) {
  EXPECT_EQ(best_encoding("gzip, deflate, br"), Encoding::Brotli);
  EXPECT_EQ(best_encoding("gzip;q=0.8, deflate"), Encoding::Gzip);
  EXPECT_EQ(best_encoding("br;q=0, gzip"), Encoding::Gzip);
  EXPECT_EQ(best_encoding("br;q=0.000, gzip;q=0"), Encoding::Identity);
  EXPECT_EQ(best_encoding(""), Encoding::Identity);
  EXPECT_EQ(best_encoding("identity"), Encoding::Identity);
}

TEST_F(WebFilesTest, EachEncodingDecodesToTheFileAndItsETagNamesTheBytes) {
  WebFiles files(root_);
  // Read for the first time: gzip (made then); Brotli once its thread has made it.
  EXPECT_EQ(files.get(root_ / "js/app.js", Encoding::Brotli)->encoding, Encoding::Gzip);
  files.compressed();
  const auto plain = files.get(root_ / "js/app.js", Encoding::Identity);
  const auto br = files.get(root_ / "js/app.js", Encoding::Brotli);
  const auto gz = files.get(root_ / "js/app.js", Encoding::Gzip);
  ASSERT_TRUE(plain && br && gz);
  EXPECT_EQ(*plain->bytes, read("js/app.js"));
  EXPECT_EQ(br->encoding, Encoding::Brotli);
  EXPECT_EQ(unbrotli(*br->bytes, plain->bytes->size()), *plain->bytes);
  EXPECT_LT(br->bytes->size(), plain->bytes->size() / 4);
  EXPECT_EQ(gz->encoding, Encoding::Gzip);
  EXPECT_EQ(gunzip(*gz->bytes, plain->bytes->size()), *plain->bytes);
  EXPECT_EQ(br->etag, plain->etag + ".br");
  EXPECT_TRUE(WebFiles::matches("\"" + plain->etag + "\"", *br));  // the same bytes
  // A tiny file is not worth compressing: its bytes as they are, whatever was accepted.
  EXPECT_EQ(files.get(root_ / "js/board.js", Encoding::Brotli)->encoding, Encoding::Identity);
  EXPECT_FALSE(files.get(root_ / "js", Encoding::Identity));  // a folder
  EXPECT_FALSE(files.get(root_ / "js/none.js", Encoding::Identity));

  const auto before = plain->etag;
  write("js/app.js", read("js/app.js") + "// one more line\n");
  const auto after = files.get(root_ / "js/app.js", Encoding::Identity);
  EXPECT_NE(after->etag, before);
  EXPECT_FALSE(WebFiles::matches("\"" + before + "\"", *after));
}

TEST_F(WebFilesTest, TheVersionFollowsEveryFileAndTheIndexPointsItsAssetsThere) {
  WebFiles files(root_);
  const auto v1 = files.version();
  EXPECT_EQ(files.version(), v1);
  const auto page = files.index(Encoding::Identity);
  ASSERT_TRUE(page);
  const std::string& html = *page->bytes;
  const std::string prefix = "/v/" + v1 + "/";
  EXPECT_NE(html.find("href=\"" + prefix + "style.css\""), std::string::npos) << html;
  EXPECT_NE(html.find("href=\"" + prefix + "favicon.svg\""), std::string::npos) << html;
  EXPECT_NE(html.find("src=\"" + prefix + "js/app.js\""), std::string::npos) << html;
  // The modules app.js imports, and theirs; not one loaded later by import().
  for (const char* module : {"app.js", "board.js", "clock.js"}) {
    EXPECT_NE(html.find("<link rel=\"modulepreload\" href=\"" + prefix + "js/" + module + "\">"),
              std::string::npos)
        << module << html;
  }
  EXPECT_EQ(html.find("late.js"), std::string::npos) << html;
  // Fragments, absolute paths and other sites stay as they are.
  EXPECT_NE(html.find("href=\"#/games\""), std::string::npos);
  EXPECT_NE(html.find("href=\"/api/v1/me\""), std::string::npos);
  EXPECT_NE(html.find("href=\"https://example.org/x\""), std::string::npos);

  write("js/board.js", "export const b = 2;\n");  // any file changed: a new version
  const auto v2 = files.version();
  EXPECT_NE(v2, v1);
  EXPECT_NE(files.index(Encoding::Identity)->bytes->find("/v/" + v2 + "/js/app.js"),
            std::string::npos);
  write("js/new.js", "export const n = 3;\n");  // a file added: another
  EXPECT_NE(files.version(), v2);
}

TEST_F(WebFilesTest, ThePageIsIndexHtmlAtTheRootHoweverTheRootIsWritten) {
  for (const auto& root : {root_, fs::path(root_.string() + "/"), root_ / "."}) {
    WebFiles files(root);
    EXPECT_TRUE(files.is_page(fs::path(root_.string() + "/") / "index.html")) << root;
    EXPECT_TRUE(files.is_page(root_ / "index.html")) << root;
    EXPECT_FALSE(files.is_page(root_ / "js" / "index.html")) << root;
    EXPECT_FALSE(files.is_page(root_ / "js" / "app.js")) << root;
  }
}

TEST_F(WebFilesTest, TheShellListsWhatTheServiceWorkerKeepsUnderTheVersion) {
  write("sw.js", "self.addEventListener('fetch', () => {});\n");
  write("manifest.webmanifest", "{}\n");
  fs::create_directories(root_ / "wasm");
  write("wasm/engine.wasm", std::string("\0asm", 4));
  write("js/package.json", "{}\n");
  write("CMakeLists.txt", "# not the client's\n");
  WebFiles files(root_);
  const auto shell = files.shell();
  EXPECT_EQ(shell.version, files.version());
  const std::vector<std::string> expected{"js/app.js",  "js/board.js",          "js/clock.js",
                                          "js/late.js", "manifest.webmanifest", "wasm/engine.wasm"};
  EXPECT_EQ(shell.files, expected);  // not the page, the worker, npm's or the build's files
}

}  // namespace
}  // namespace tengen::http_files

// test/bench/footprint/bare-lok.cc: LibreOffice 25.2 through LibreOfficeKit with no Node.js around it (issue 19),
// to learn what a kit's memory budget can be at best. Mirrors what a kit does with one small document:
// lok_init_2 with its own profile, the warm-up of the modules named (writer, calc, impress: a new document of each
// saved in its OOXML format, reloaded and exported to PDF, as daemon/kit/warm-up.ts does), then the document
// loaded for editing, initializeForRendering, nine 256x256 tiles painted. Prints "READY <pid>" and waits for stdin
// to close, so that the caller (bare-lok.ts) reads /proc/<pid>/smaps while the document is open.
// Usage: bare-lok <program dir> <profile url> <work dir> <document path> [modules, comma-separated]
#define LOK_USE_UNSTABLE_API
#include <LibreOfficeKit/LibreOfficeKit.hxx>
#include <unistd.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

static std::string fileUrl(const std::string& path) { return "file://" + path; }

int main(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: bare-lok <program dir> <profile url> <work dir> <document> [modules]\n");
    return 2;
  }
  const std::string programDir = argv[1], profileUrl = argv[2], workDir = argv[3], doc = argv[4];
  const std::string modules = argc > 5 ? argv[5] : "writer,calc,impress";
  lok::Office* office = lok::lok_cpp_init(programDir.c_str(), profileUrl.c_str());
  if (!office) {
    std::fprintf(stderr, "lok_init failed\n");
    return 1;
  }
  struct Module { const char* name; const char* factory; const char* ext; };
  const Module all[] = {{"writer", "private:factory/swriter", "docx"},
                        {"calc", "private:factory/scalc", "xlsx"},
                        {"impress", "private:factory/simpress", "pptx"}};
  for (const Module& m : all) {
    if (modules.find(m.name) == std::string::npos) continue;
    const std::string file = workDir + "/warm-up." + m.ext;
    if (lok::Document* created = office->documentLoad(m.factory, "Batch=true")) {
      created->saveAs(fileUrl(file).c_str(), m.ext);
      delete created;
    }
    if (lok::Document* loaded = office->documentLoad(fileUrl(file).c_str(), "Batch=true")) {
      loaded->saveAs(fileUrl(workDir + "/warm-up.pdf").c_str(), "pdf");
      delete loaded;
    }
    unlink(file.c_str());
  }
  unlink((workDir + "/warm-up.pdf").c_str());
  lok::Document* document = office->documentLoad(fileUrl(doc).c_str(), "");
  if (!document) {
    std::fprintf(stderr, "load failed: %s\n", office->getError());
    return 1;
  }
  document->initializeForRendering("{}");
  std::vector<unsigned char> buffer(256 * 256 * 4);
  for (int row = 0; row < 3; row++)
    for (int col = 0; col < 3; col++) document->paintTile(buffer.data(), 256, 256, col * 3840, row * 3840, 3840, 3840);
  std::printf("READY %d\n", getpid());
  std::fflush(stdout);
  char c;
  while (read(0, &c, 1) > 0) {
  }
  delete document;
  _exit(0);
}

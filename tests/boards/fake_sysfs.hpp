// A fake sysfs tree in a fresh temp dir for the sensor and clock tests (never the real /sys).
#pragma once

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace flowtune_test {

class FakeSysfs {
 public:
  FakeSysfs() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "flowtune-sysfs-XXXXXX").string();
    if (!::mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
    root_ = tmpl;
  }
  ~FakeSysfs() {
    std::error_code ec;
    std::filesystem::remove_all(root_, ec);
  }
  const std::string& root() const { return root_; }
  /// Writes root + path atomically (temp file + rename), creating directories.
  void write(const std::string& path, const std::string& text) const {
    std::filesystem::path p = root_ + path;
    std::filesystem::create_directories(p.parent_path());
    std::string tmp = p.string() + ".tmp";
    {
      std::ofstream out(tmp);
      out << text;
    }
    std::filesystem::rename(tmp, p);
  }
  std::string read(const std::string& path) const {
    std::ifstream in(root_ + path);
    std::string s;
    std::getline(in, s);
    return s;
  }
  void remove(const std::string& path) const { std::filesystem::remove(root_ + path); }

 private:
  std::string root_;
};

}  // namespace flowtune_test

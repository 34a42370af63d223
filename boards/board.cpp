// Board profiles: loading boards/*.toml with toml++, listing, formatting, auto-detection.
#include "boards/board.hpp"

#include <toml++/toml.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "boards/closest_key.hpp"
#include "boards/cpu_facts.hpp"
#include "boards/nvml.hpp"
#include "boards/sysfs.hpp"

#ifndef FLOWTUNE_BOARDS_DIR
#error "FLOWTUNE_BOARDS_DIR must be defined by boards/CMakeLists.txt"
#endif

namespace flowtune {

namespace fs = std::filesystem;

std::string Board::arch() const {
  if (target != "cuda") return "";
  return "sm_" + std::to_string(cc_major) + std::to_string(cc_minor);
}

std::string boards_dir() {
  const char* env = std::getenv("FLOWTUNE_BOARDS_DIR");
  if (env && *env) return env;
  std::error_code ec;
  if (fs::is_directory(FLOWTUNE_BOARDS_DIR, ec)) return FLOWTUNE_BOARDS_DIR;
  // An installed `tune` (the flowtune Debian package): <prefix>/bin/tune and the profiles in
  // <prefix>/share/flowtune/boards.
  const fs::path installed =
      fs::read_symlink("/proc/self/exe", ec).parent_path().parent_path() / "share/flowtune/boards";
  return !ec && fs::is_directory(installed, ec) ? installed.string() : FLOWTUNE_BOARDS_DIR;
}

std::vector<std::string> list_boards() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(boards_dir(), ec))
    if (entry.is_regular_file() && entry.path().extension() == ".toml")
      names.push_back(entry.path().stem().string());
  if (ec) throw BoardError("cannot list board directory " + boards_dir() + ": " + ec.message());
  std::sort(names.begin(), names.end());
  return names;
}

namespace {

/// Typed access to one TOML table with file + dotted-key error messages.
class Reader {
 public:
  Reader(std::string file, const toml::table& table, std::string prefix)
      : file_(std::move(file)), table_(table), prefix_(std::move(prefix)) {}

  [[noreturn]] void fail(const std::string& key, const std::string& what) const {
    throw BoardError(file_ + ": key '" + dotted(key) + "': " + what);
  }
  std::string dotted(const std::string& key) const {
    return prefix_.empty() ? key : prefix_ + "." + key;
  }

  /// Every key of the table must be in allowed; an unknown one is named with the allowed
  /// key nearest to it ("did you mean", boards/closest_key.hpp).
  void only(const std::set<std::string>& allowed) const {
    for (auto&& [k, v] : table_) {
      (void)v;
      std::string key(k.str());
      if (!allowed.count(key)) {
        std::string list;
        for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
        const std::optional<std::string> near = closest_key(key, allowed);
        fail(key, "unknown key" + (near ? "; did you mean '" + dotted(*near) + "'?" : "") +
                      " (allowed here: " + list + ")");
      }
    }
  }
  bool has(const std::string& key) const { return table_.contains(key); }
  /// The node of a required key. A missing key whose misspelling the table holds is reported
  /// as that unknown key ("did you mean"), not only as missing.
  const toml::node& node(const std::string& key) const {
    const toml::node* n = table_.get(key);
    if (!n) {
      for (auto&& [k, v] : table_) {
        (void)v;
        const std::string present(k.str());
        if (closest_key(present, {key}))
          fail(present, "unknown key; did you mean '" + dotted(key) + "'? (required key '" +
                            dotted(key) + "' is missing)");
      }
      fail(key, "missing");
    }
    return *n;
  }
  Reader table(const std::string& key) const {
    const toml::table* t = node(key).as_table();
    if (!t) fail(key, "must be a table [" + dotted(key) + "]");
    return Reader(file_, *t, dotted(key));
  }
  std::string str(const std::string& key) const {
    auto v = node(key).value<std::string>();
    if (!node(key).is_string() || !v) fail(key, "must be a string");
    return *v;
  }
  std::int64_t integer(const std::string& key, std::int64_t min_value = 0) const {
    if (!node(key).is_integer()) fail(key, "must be an integer");
    std::int64_t v = *node(key).value<std::int64_t>();
    if (v < min_value)
      fail(key, "must be >= " + std::to_string(min_value) + ", got " + std::to_string(v));
    return v;
  }
  int int32(const std::string& key, std::int64_t min_value = 0) const {
    std::int64_t v = integer(key, min_value);
    if (v > 2147483647) fail(key, "too large: " + std::to_string(v));
    return static_cast<int>(v);
  }
  double number(const std::string& key) const {
    const toml::node& n = node(key);
    if (!n.is_number()) fail(key, "must be a number");
    double v = *n.value<double>();
    if (!(v > 0)) fail(key, "must be > 0");
    return v;
  }
  std::vector<int> int_array(const std::string& key) const {
    const toml::array* a = node(key).as_array();
    if (!a) fail(key, "must be an array of integers");
    std::vector<int> out;
    for (const auto& e : *a) {
      if (!e.is_integer()) fail(key, "must be an array of integers");
      std::int64_t v = *e.value<std::int64_t>();
      if (v < 0 || v > 2147483647) fail(key, "value out of range: " + std::to_string(v));
      out.push_back(static_cast<int>(v));
    }
    return out;
  }
  std::vector<std::string> str_array(const std::string& key) const {
    const toml::array* a = node(key).as_array();
    if (!a) fail(key, "must be an array of strings");
    std::vector<std::string> out;
    for (const auto& e : *a) {
      if (!e.is_string()) fail(key, "must be an array of strings");
      out.push_back(*e.value<std::string>());
    }
    return out;
  }

 private:
  std::string file_;
  const toml::table& table_;
  std::string prefix_;
};

void read_gpu(const Reader& root, Board& b) {
  Reader gpu = root.table("gpu");
  gpu.only({"cc_major", "cc_minor", "sm_count", "l2_bytes", "memory_bandwidth_gbs", "clocks_mhz"});
  b.cc_major = gpu.int32("cc_major", 1);
  b.cc_minor = gpu.int32("cc_minor", 0);
  b.sm_count = gpu.int32("sm_count", 1);
  b.l2_bytes = gpu.integer("l2_bytes", 1);
  b.memory_bandwidth_gbs = gpu.number("memory_bandwidth_gbs");
  b.gpu_clocks_mhz = gpu.int_array("clocks_mhz");
  if (b.gpu_clocks_mhz.empty()) gpu.fail("clocks_mhz", "must not be empty");
  for (std::size_t i = 0; i < b.gpu_clocks_mhz.size(); ++i)
    if (b.gpu_clocks_mhz[i] <= 0 || (i > 0 && b.gpu_clocks_mhz[i] >= b.gpu_clocks_mhz[i - 1]))
      gpu.fail("clocks_mhz", "must be positive and strictly descending");
  try {
    b.limits = arch_limits(b.cc_major, b.cc_minor);
  } catch (const std::invalid_argument& e) {
    gpu.fail("cc_major", e.what());
  }

  // The file restates the guide's figures; they must agree with the arch table, so a typo
  // in either place is caught.
  Reader lim = root.table("limits");
  lim.only({"max_threads_per_block", "max_threads_per_sm", "max_blocks_per_sm", "registers_per_sm",
            "max_registers_per_block", "shared_bytes_per_sm", "shared_bytes_per_block_default",
            "shared_bytes_per_block_optin", "carveout_shared_kib"});
  auto expect = [&](const char* key, int table_value) {
    int v = lim.int32(key, 1);
    if (v != table_value)
      lim.fail(key, std::to_string(v) + " contradicts the " + b.arch() + " table value " +
                        std::to_string(table_value) + " (boards/arch_limits.cpp)");
  };
  const ArchLimits& t = b.limits;
  expect("max_threads_per_block", t.max_threads_per_block);
  expect("max_threads_per_sm", t.max_threads_per_sm);
  expect("max_blocks_per_sm", t.max_blocks_per_sm);
  expect("registers_per_sm", t.registers_per_sm);
  expect("max_registers_per_block", t.max_registers_per_block);
  expect("shared_bytes_per_sm", t.shared_bytes_per_sm);
  expect("shared_bytes_per_block_default", t.shared_bytes_per_block_default);
  expect("shared_bytes_per_block_optin", t.shared_bytes_per_block_optin);
  if (lim.int_array("carveout_shared_kib") != t.carveout_shared_kib)
    lim.fail("carveout_shared_kib",
             "contradicts the " + b.arch() + " table (boards/arch_limits.cpp)");
}

// [model]: each fact an inline table { value = <number > 0>, source = "<kind>: ..." }.
void read_model(const Reader& root, Board& b) {
  if (!root.has("model")) return;
  Reader m = root.table("model");
  const std::vector<std::pair<const char*, ModelFact*>> facts = {
      {"fp32_lanes_per_sm", &b.model.fp32_lanes_per_sm}, {"fp16_rate", &b.model.fp16_rate},
      {"launch_latency_us", &b.model.launch_latency_us}, {"idle_power_w", &b.model.idle_power_w},
      {"load_power_w", &b.model.load_power_w},           {"build_seconds", &b.model.build_seconds}};
  std::set<std::string> keys;
  for (const auto& f : facts) keys.insert(f.first);
  m.only(keys);
  for (const auto& [key, fact] : facts) {
    Reader f = m.table(key);
    f.only({"value", "source"});
    fact->value = f.number("value");
    fact->source = f.str("source");
    static const char* kinds[] = {"datasheet:", "guide:", "paper:", "measured:", "assumed:"};
    bool known = false;
    for (const char* k : kinds) known = known || fact->source.rfind(k, 0) == 0;
    if (!known)
      f.fail("source", "must start with datasheet:, guide:, paper:, measured: or assumed:");
  }
  if (b.model.load_power_w.value < b.model.idle_power_w.value)
    m.fail("load_power_w", "below idle_power_w");
  b.model.present = true;
}

void read_power(const Reader& root, Board& b) {
  Reader p = root.table("power");
  b.power.kind = p.str("kind");
  const std::string& k = b.power.kind;
  if (k == "nvml" || k == "none") {
    p.only({"kind"});
  } else if (k == "ina3221_iio" || k == "ina3221_hwmon") {
    p.only({"kind", "paths", "rails"});
    b.power.paths = p.str_array("paths");
    b.power.rails = p.str_array("rails");
    if (b.power.rails.empty()) p.fail("rails", "must name at least one rail");
  } else if (k == "rapl") {
    p.only({"kind", "paths"});
    b.power.paths = p.str_array("paths");
  } else {
    p.fail("kind",
           "unknown power sensor kind '" + k + "' (nvml, ina3221_iio, ina3221_hwmon, rapl, none)");
  }
  if (k != "nvml" && k != "none" && b.power.paths.empty())
    p.fail("paths", "must name at least one path");
  for (const auto& path : b.power.paths) {
    try {
      sysfs::checked_path(path, "");
    } catch (const std::runtime_error& e) {
      p.fail("paths", e.what());
    }
  }
}

void read_clock_control(const Reader& root, Board& b) {
  Reader c = root.table("clock_control");
  b.clock_control.kind = c.str("kind");
  const std::string& k = b.clock_control.kind;
  if (k == "nvml" || k == "none") {
    c.only({"kind"});
  } else if (k == "devfreq") {
    c.only({"kind", "devfreq_path"});
    b.clock_control.devfreq_path = c.str("devfreq_path");
    try {
      sysfs::checked_path(b.clock_control.devfreq_path, "");
    } catch (const std::runtime_error& e) {
      c.fail("devfreq_path", e.what());
    }
  } else {
    c.fail("kind", "unknown clock control kind '" + k + "' (nvml, devfreq, none)");
  }
}

}  // namespace

namespace {

// The aliases of every profile of boards_dir(): alias -> (profile, file). Read from each file's
// top-level `aliases` only (the profile itself is checked when it is loaded).
std::map<std::string, std::pair<std::string, std::string>> board_aliases() {
  std::map<std::string, std::pair<std::string, std::string>> out;
  const std::vector<std::string> names = list_boards();
  for (const std::string& name : names) {
    const std::string path = boards_dir() + "/" + name + ".toml";
    toml::table doc;
    try {
      doc = toml::parse_file(path);
    } catch (const toml::parse_error&) {
      continue;  // loading that board reports its syntax error
    }
    const toml::array* aliases = doc["aliases"].as_array();
    if (!aliases) continue;
    for (const auto& a : *aliases) {
      const auto alias = a.value<std::string>();
      if (!alias) continue;
      if (std::find(names.begin(), names.end(), *alias) != names.end())
        throw BoardError(path + ": key 'aliases': '" + *alias + "' is also the board " +
                         boards_dir() + "/" + *alias + ".toml");
      const auto [it, fresh] = out.emplace(*alias, std::make_pair(name, path));
      if (!fresh && it->second.first != name)
        throw BoardError(path + ": key 'aliases': '" + *alias + "' is also an alias in " +
                         it->second.second);
    }
  }
  return out;
}

}  // namespace

std::optional<std::string> resolve_board_alias(const std::string& name) {
  if (name.empty() || name.find_first_of("/.") != std::string::npos) return std::nullopt;
  const auto aliases = board_aliases();
  const auto it = aliases.find(name);
  if (it == aliases.end()) return std::nullopt;
  return it->second.first;
}

std::string board_alias_note(const std::string& name) {
  const auto target = resolve_board_alias(name);
  if (!target) return "";
  const Board b = load_board(*target);
  std::string note = "--board " + name + ": an alias of " + b.name + " (" + b.description + ")";
  for (const std::string& other : list_boards())
    if (other != b.name && other.compare(0, name.size() + 1, name + "-") == 0)
      note += "; for " + load_board(other).description + " use --board " + other;
  return note;
}

Board load_board(const std::string& name_or_path) {
  std::string path;
  bool is_path =
      name_or_path.size() > 5 && name_or_path.compare(name_or_path.size() - 5, 5, ".toml") == 0;
  if (is_path) {
    path = name_or_path;
  } else {
    path = boards_dir() + "/" + name_or_path + ".toml";
    std::error_code ec;
    if (!fs::exists(path, ec))
      if (const auto target = resolve_board_alias(name_or_path))
        path = boards_dir() + "/" + *target + ".toml";
    if (!fs::exists(path, ec)) {
      // Not a name: a directory given where a board file was meant (e.g. "boards/").
      if (fs::is_directory(name_or_path, ec))
        throw BoardError(name_or_path + ": is a directory, not a board profile (.toml)");
      std::string known;
      for (const auto& n : list_boards()) known += (known.empty() ? "" : ", ") + n;
      throw BoardError("unknown board '" + name_or_path + "': no file " + path +
                       " (known boards: " + known + ")");
    }
  }
  // A directory opens and parses as an empty table ("key 'name': missing"): say what it is.
  std::error_code ec;
  fs::file_status st = fs::status(path, ec);
  if (ec && ec != std::errc::no_such_file_or_directory)
    throw BoardError("cannot read board file " + path + ": " + ec.message());
  if (fs::is_directory(st))
    throw BoardError(path + ": is a directory, not a board profile (.toml)");
  if (fs::exists(st) && !fs::is_regular_file(st))
    throw BoardError(path + ": not a regular file, not a board profile (.toml)");
  std::ifstream probe(path);
  if (!probe) throw BoardError("cannot read board file " + path + ": " + std::strerror(errno));
  probe.close();

  toml::table doc;
  try {
    doc = toml::parse_file(path);
  } catch (const toml::parse_error& e) {
    std::ostringstream os;
    os << path << ":" << e.source().begin.line << ": TOML syntax error: " << e.description();
    throw BoardError(os.str());
  }

  Board b;
  b.source_file = path;
  Reader root(path, doc, "");
  b.name = root.str("name");
  b.description = root.str("description");
  b.target = root.str("target");
  std::string stem = fs::path(path).stem().string();
  if (b.name != stem)
    root.fail("name", "'" + b.name + "' differs from the file name '" + stem + "'");
  if (b.target == "cuda") {
    root.only({"name", "description", "target", "match", "aliases", "gpu", "limits", "power",
               "clock_control", "model"});
    read_gpu(root, b);
    read_model(root, b);
  } else if (b.target == "cpu") {
    root.only({"name", "description", "target", "match", "aliases", "power", "clock_control"});
  } else {
    root.fail("target", "must be \"cpu\" or \"cuda\", got '" + b.target + "'");
  }
  if (root.has("match")) b.match = root.str_array("match");
  if (root.has("aliases")) b.aliases = root.str_array("aliases");
  for (const std::string& a : b.aliases)
    if (a.empty() || a == b.name || a == "auto" || a.find_first_of("/\\. ") != std::string::npos)
      root.fail("aliases", "'" + a +
                               "' is not a usable board name (non-empty, not the profile's "
                               "own name nor \"auto\", no '/', '\\', '.' or space)");
  read_power(root, b);
  read_clock_control(root, b);
  if (b.target == "cpu" && b.clock_control.kind != "none")
    root.fail("clock_control.kind", "a cpu board has no GPU clock to control; use \"none\"");
  return b;
}

std::string format_board(const Board& b) {
  std::ostringstream os;
  auto kib = [](std::int64_t bytes) { return std::to_string(bytes / 1024) + " KiB"; };
  os << b.name << ": " << b.description << "\n";
  os << "  file:                " << b.source_file << "\n";
  os << "  target:              " << b.target << "\n";
  if (b.target == "cuda") {
    const ArchLimits& l = b.limits;
    os << "  arch:                " << b.arch() << " (compute capability " << b.cc_major << "."
       << b.cc_minor << "), " << b.sm_count << " SMs\n";
    os << "  threads:             " << l.max_threads_per_block << " per block, "
       << l.max_threads_per_sm << " per SM (" << l.max_warps_per_sm << " warps), "
       << l.max_blocks_per_sm << " blocks per SM\n";
    os << "  registers:           " << l.registers_per_sm << " per SM, "
       << l.max_registers_per_block << " per block, " << l.max_registers_per_thread
       << " per thread (allocated per warp in units of " << l.register_allocation_unit << ")\n";
    os << "  shared memory:       " << kib(l.shared_bytes_per_sm) << " per SM, "
       << kib(l.shared_bytes_per_block_default) << " per block ("
       << kib(l.shared_bytes_per_block_optin) << " opt-in), unit " << l.shared_allocation_unit
       << " B, reserved " << l.reserved_shared_bytes_per_block << " B per block\n";
    os << "  carveouts:          ";
    for (int c : l.carveout_shared_kib) os << " " << c;
    os << " KiB\n";
    os << "  L2:                  " << kib(b.l2_bytes) << "\n";
    os << "  memory bandwidth:    " << b.memory_bandwidth_gbs << " GB/s\n";
    os << "  GPU clocks (MHz):   ";
    for (int c : b.gpu_clocks_mhz) os << " " << c;
    os << "\n";
  }
  if (b.target == "cpu") os << format_cpu_facts(read_cpu_facts());
  os << "  power sensor:        " << b.power.kind;
  for (const auto& r : b.power.rails) os << " " << r;
  os << "\n";
  for (const auto& p : b.power.paths) os << "                       " << p << "\n";
  os << "  clock control:       " << b.clock_control.kind;
  if (!b.clock_control.devfreq_path.empty()) os << " " << b.clock_control.devfreq_path;
  os << "\n";
  return os.str();
}

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

bool matches(const Board& b, const std::string& device) {
  std::string d = lower(device);
  for (const auto& m : b.match)
    if (!m.empty() && d.find(lower(m)) != std::string::npos) return true;
  return false;
}

/// The Jetson model string (/proc/device-tree/model, NUL-terminated), "" when absent.
std::string device_tree_model() {
  auto text = sysfs::read_text(sysfs::default_root() + "/proc/device-tree/model");
  if (!text) return "";
  std::string s = text->substr(0, text->find('\0'));
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  return s;
}

std::string cc_arch(int major, int minor) {
  return "sm_" + std::to_string(major) + std::to_string(minor);
}

}  // namespace

std::string detect_board_name() {
  return detect_board().name;
}

BoardDetection detect_board() {
  std::string device;
  std::optional<std::pair<int, int>> cc;
  bool via_nvml = false;
  if (Nvml* nvml = Nvml::get()) {
    device = nvml->device_name();
    cc = nvml->compute_capability();
    via_nvml = true;
  } else {
    device = device_tree_model();  // Jetsons have no NVML; their model string names them
    if (device.empty()) return {"host", ""};
  }
  std::vector<std::string> found;
  for (const auto& name : list_boards()) {
    Board b = load_board(name);
    if (b.target != "cuda" || !matches(b, device)) continue;
    if (cc && (b.cc_major != cc->first || b.cc_minor != cc->second)) continue;
    found.push_back(name);
  }
  std::string what = device + (cc ? " (" + cc_arch(cc->first, cc->second) + ")" : std::string());
  // A device tree that names no NVIDIA board (e.g. another ARM machine) means no GPU.
  std::string d = lower(device);
  if (found.empty() && !via_nvml && d.find("jetson") == std::string::npos &&
      d.find("nvidia") == std::string::npos)
    return {"host", what + " (device tree, no NVIDIA board)"};
  if (found.empty())
    throw BoardError("--board auto: no board profile in " + boards_dir() +
                     " matches the present GPU " + what);
  if (found.size() > 1) {
    std::string list;
    for (const auto& f : found) list += (list.empty() ? "" : ", ") + f;
    throw BoardError("--board auto: several board profiles match the present GPU " + what + ": " +
                     list);
  }
  return {found.front(), what + (via_nvml ? " through NVML" : " (device tree)")};
}

std::string board_detection_note(const BoardDetection& found, const Board& board) {
  const std::string profile = "board " + board.name + " (" + board.description + ")";
  if (found.device.empty())
    return "--board auto: no GPU found (no NVML device, no Jetson device tree): " + profile;
  return "--board auto: found " + found.device + ": " + profile;
}

bool gpu_present() {
  if (Nvml::get()) return true;  // non-null only with a device
  const std::string d = lower(device_tree_model());
  return d.find("jetson") != std::string::npos || d.find("nvidia") != std::string::npos;
}

void check_board_matches_device(const Board& b) {
  if (b.target != "cuda") return;
  Nvml* nvml = Nvml::get();
  if (!nvml) return;
  auto cc = nvml->compute_capability();
  if (!cc) return;
  if (cc->first != b.cc_major || cc->second != b.cc_minor)
    throw BoardError("board " + b.name + " is " + b.arch() + " but the present GPU is " +
                     nvml->device_name() + " (" + cc_arch(cc->first, cc->second) + ")");
}

}  // namespace flowtune

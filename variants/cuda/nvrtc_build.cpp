#include "variants/cuda/nvrtc_build.hpp"

#include <dlfcn.h>
#include <nvrtc.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "variants/cuda/embedded_sources.hpp"
#include "variants/kernel_binary_cache.hpp"

namespace flowtune::cuda {
namespace {

std::uint64_t fnv1a(const std::string& text, std::uint64_t h = 14695981039346656037ull) {
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

/// fnv1a over every embedded source ("name\ntext", in name order) continuing from h: the same
/// value as hashing them in place, memoised per h (one per main file and NVRTC version), so a
/// cached build costs no pass over the ~190 KB of sources.
std::uint64_t fnv1a_sources(std::uint64_t h) {
  static std::mutex mutex;
  static std::map<std::uint64_t, std::uint64_t> memo;
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = memo.find(h); it != memo.end()) return it->second;
  std::uint64_t out = h;
  for (const auto& [name, text] : embedded_tvl1_sources()) out = fnv1a(name + "\n" + text, out);
  memo.emplace(h, out);
  return out;
}

/// Directory holding cuda_fp16.h for NVRTC: $FLOWTUNE_CUDA_INCLUDE, the toolkit's include
/// directory known at build time, $CUDA_HOME/include, /usr/local/cuda/include.
std::string cuda_include_dir() {
  std::vector<std::string> candidates;
  if (const char* e = std::getenv("FLOWTUNE_CUDA_INCLUDE")) candidates.emplace_back(e);
#ifdef FLOWTUNE_CUDA_INCLUDE_DIR
  candidates.emplace_back(FLOWTUNE_CUDA_INCLUDE_DIR);
#endif
  if (const char* e = std::getenv("CUDA_HOME"))
    candidates.emplace_back(std::string(e) + "/include");
  candidates.emplace_back("/usr/local/cuda/include");
  for (const auto& dir : candidates) {
    std::error_code ec;
    if (std::filesystem::exists(dir + "/cuda_fp16.h", ec)) return dir;
  }
  throw std::runtime_error(
      "nvrtc_build: cuda_fp16.h not found (set FLOWTUNE_CUDA_INCLUDE to the CUDA include dir)");
}

/// The NVRTC entry points nvrtc_build calls: the library linked in, or the one named by
/// $FLOWTUNE_NVRTC_LIBRARY (dlopen), e.g. NVRTC 11.8 from PyPI for the JetPack-era archs.
struct NvrtcApi {
  std::string library;  ///< "" = linked in
  decltype(&::nvrtcVersion) version = &::nvrtcVersion;
  decltype(&::nvrtcGetErrorString) error_string = &::nvrtcGetErrorString;
  decltype(&::nvrtcCreateProgram) create = &::nvrtcCreateProgram;
  decltype(&::nvrtcCompileProgram) compile = &::nvrtcCompileProgram;
  decltype(&::nvrtcGetProgramLogSize) log_size = &::nvrtcGetProgramLogSize;
  decltype(&::nvrtcGetProgramLog) log = &::nvrtcGetProgramLog;
  decltype(&::nvrtcGetCUBINSize) cubin_size = &::nvrtcGetCUBINSize;
  decltype(&::nvrtcGetCUBIN) cubin = &::nvrtcGetCUBIN;
  decltype(&::nvrtcDestroyProgram) destroy = &::nvrtcDestroyProgram;
  decltype(&::nvrtcGetNumSupportedArchs) num_archs = &::nvrtcGetNumSupportedArchs;
  decltype(&::nvrtcGetSupportedArchs) archs = &::nvrtcGetSupportedArchs;
};

template <typename F>
void load_symbol(void* handle, const std::string& library, const char* name, F* f) {
  void* p = ::dlsym(handle, name);
  if (!p)
    throw std::runtime_error("FLOWTUNE_NVRTC_LIBRARY=" + library + ": no symbol " + name +
                             " (not an NVRTC 11.2+ library?)");
  *f = reinterpret_cast<F>(p);
}

const NvrtcApi& nvrtc_api() {
  static const NvrtcApi api = [] {
    NvrtcApi a;
    const char* e = std::getenv("FLOWTUNE_NVRTC_LIBRARY");
    if (!e || !*e) return a;
    a.library = e;
    void* h = ::dlopen(e, RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
    if (!h)
      throw std::runtime_error("FLOWTUNE_NVRTC_LIBRARY=" + a.library + ": cannot load (" +
                               ::dlerror() + ")");
    load_symbol(h, a.library, "nvrtcVersion", &a.version);
    load_symbol(h, a.library, "nvrtcGetErrorString", &a.error_string);
    load_symbol(h, a.library, "nvrtcCreateProgram", &a.create);
    load_symbol(h, a.library, "nvrtcCompileProgram", &a.compile);
    load_symbol(h, a.library, "nvrtcGetProgramLogSize", &a.log_size);
    load_symbol(h, a.library, "nvrtcGetProgramLog", &a.log);
    load_symbol(h, a.library, "nvrtcGetCUBINSize", &a.cubin_size);
    load_symbol(h, a.library, "nvrtcGetCUBIN", &a.cubin);
    load_symbol(h, a.library, "nvrtcDestroyProgram", &a.destroy);
    load_symbol(h, a.library, "nvrtcGetNumSupportedArchs", &a.num_archs);
    load_symbol(h, a.library, "nvrtcGetSupportedArchs", &a.archs);
    return a;
  }();
  return api;
}

void check(nvrtcResult r, const char* what) {
  if (r != NVRTC_SUCCESS)
    throw std::runtime_error(std::string("nvrtc_build: ") + what + ": " +
                             nvrtc_api().error_string(r));
}

}  // namespace

std::vector<int> nvrtc_supported_archs() {
  const NvrtcApi& api = nvrtc_api();
  int n = 0;
  check(api.num_archs(&n), "nvrtcGetNumSupportedArchs");
  std::vector<int> archs(std::size_t(std::max(n, 0)));
  if (n > 0) check(api.archs(archs.data()), "nvrtcGetSupportedArchs");
  return archs;
}

std::string nvrtc_version() {
  int major = 0, minor = 0;
  nvrtc_api().version(&major, &minor);
  return std::to_string(major) + "." + std::to_string(minor);
}

std::string nvrtc_version_string() {
  int major = 0, minor = 0;
  nvrtc_api().version(&major, &minor);
  const std::string& lib = nvrtc_api().library;
  return std::to_string(major) + "." + std::to_string(minor) +
         (lib.empty() ? std::string(" (linked)") : " (" + lib + ")");
}

std::string nvrtc_target_arch(const std::string& arch, bool* fallback) {
  static const std::regex re("sm_([0-9]+)a?");
  std::smatch m;
  if (!std::regex_match(arch, m, re))
    throw std::invalid_argument("nvrtc_target_arch: malformed arch '" + arch + "' (want sm_XY)");
  const int cc = std::stoi(m[1].str());
  // CUDA 13's NVRTC dropped every target below Turing: compile for its oldest target (sm_75)
  // instead and let the caller mark the resources as estimated. An NVRTC that lists the arch
  // (e.g. 11.8 through FLOWTUNE_NVRTC_LIBRARY) compiles for it.
  const std::vector<int> supported = nvrtc_supported_archs();
  const bool fb = std::find(supported.begin(), supported.end(), cc) == supported.end();
  if (fallback) *fallback = fb;
  if (!fb) return arch;
  int oldest_above = 0;
  for (int s : supported)
    if (s > cc && (oldest_above == 0 || s < oldest_above)) oldest_above = s;
  if (oldest_above == 0)
    throw std::invalid_argument("nvrtc_target_arch: NVRTC " + nvrtc_version_string() +
                                " has no target for " + arch + " nor a newer one");
  return "sm_" + std::to_string(oldest_above);
}

std::vector<KernelResources> parse_ptxas_log(const std::string& log) {
  static const std::regex entry_re(R"(Compiling entry function '([^']+)' for '([^']+)')");
  static const std::regex props_re(R"(Function properties for ([^\s]+))");
  static const std::regex frame_re(
      R"((\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)");
  static const std::regex used_re(R"(Used (\d+) registers)");
  static const std::regex smem_re(R"((\d+) bytes smem)");
  std::vector<KernelResources> out;
  std::map<std::string, std::size_t> index;  // entry name -> position in out
  std::string current_entry, current_props;
  std::istringstream in(log);
  std::string line;
  std::smatch m;
  auto entry = [&](const std::string& name) -> KernelResources* {
    auto it = index.find(name);
    return it == index.end() ? nullptr : &out[it->second];
  };
  while (std::getline(in, line)) {
    if (std::regex_search(line, m, entry_re)) {
      current_entry = m[1].str();
      if (!index.count(current_entry)) {
        index[current_entry] = out.size();
        KernelResources r;
        r.kernel = current_entry;
        r.built_for = m[2].str();
        out.push_back(r);
      }
    } else if (std::regex_search(line, m, props_re)) {
      current_props = m[1].str();
    } else if (std::regex_search(line, m, frame_re)) {
      if (KernelResources* r = entry(current_props)) {
        r->local_bytes = std::stoi(m[1].str());
        r->spill_bytes = std::stoi(m[2].str()) + std::stoi(m[3].str());
      }
    } else if (std::regex_search(line, m, used_re)) {
      if (KernelResources* r = entry(current_entry)) {
        r->registers_per_thread = std::stoi(m[1].str());
        if (std::regex_search(line, m, smem_re)) r->static_shared_bytes = std::stoi(m[1].str());
      }
    }
  }
  return out;
}

std::vector<std::string> nvrtc_options(const std::string& target, int nvrtc_major,
                                       int nvrtc_minor) {
  std::vector<std::string> options = {"--gpu-architecture=" + target, "-std=c++17",
                                      "--ptxas-options=-v"};
  // NVRTC 12.9 and newer keep their own cache (in the driver's compute cache, only where a
  // driver is loaded): a hit returns the cubin in milliseconds with an empty program log, no
  // ptxas report, so no resources. Our cache (memory + disk) keeps the log with the cubin.
  if (nvrtc_major > 12 || (nvrtc_major == 12 && nvrtc_minor >= 9)) options.push_back("--no-cache");
  return options;
}

std::string build_cache_dir() {
  if (const auto folders = kernel_cache_folders()) return folders->local;
  if (const char* e = std::getenv("FLOWTUNE_CACHE_DIR"); e && *e) return e;
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/flowtune";
  return {};
}

std::vector<std::string> prebuilt_kernel_dirs() {
  if (const auto folders = kernel_cache_folders()) return folders->prebuilt;
  static const std::vector<std::string> dirs = [] {
    std::vector<std::string> out;
    std::error_code ec;
    if (const char* e = std::getenv("FLOWTUNE_PREBUILT_KERNELS")) {
      std::stringstream in(e);
      std::string dir;
      while (std::getline(in, dir, ':'))
        if (!dir.empty() && std::filesystem::is_directory(dir, ec)) out.push_back(dir);
      return out;
    }
    // The installed cache: <prefix>/share/flowtune/kernels for <prefix>/bin/tune (or a program
    // linking the installed library from <prefix>/lib).
    const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec) return out;
    const std::filesystem::path root = exe.parent_path().parent_path() / "share/flowtune/kernels";
    if (!std::filesystem::is_directory(root, ec)) return out;
    out.push_back(root.string());
    std::vector<std::string> subs;
    for (const auto& entry : std::filesystem::directory_iterator(root, ec))
      if (entry.is_directory(ec)) subs.push_back(entry.path().string());
    std::sort(subs.begin(), subs.end());
    out.insert(out.end(), subs.begin(), subs.end());
    return out;
  }();
  return dirs;
}

std::shared_ptr<const NvrtcBuild> nvrtc_build(const std::string& main_file,
                                              const std::vector<std::string>& defines,
                                              const std::string& arch) {
  const auto& sources = embedded_tvl1_sources();
  if (!sources.count(main_file))
    throw std::invalid_argument("nvrtc_build: no embedded source '" + main_file + "'");
  bool fallback = false;
  const std::string target = nvrtc_target_arch(arch, &fallback);

  const NvrtcApi& api = nvrtc_api();
  int major = 0, minor = 0;
  api.version(&major, &minor);
  std::vector<std::string> options = nvrtc_options(target, major, minor);
  for (const auto& d : defines) options.push_back("-D" + d);
  // The key: NVRTC's version, the sources, the arch and the defines; not where this host keeps
  // the toolkit's headers (they come with the NVRTC version), so that hosts whose CUDA lives in
  // different folders share the store's binaries (tuner/kernel_store.hpp).
  // The sources' part of the hash is the same for every call: hashed once (hashing ~190 KB of
  // embedded sources per call was 83% of `tune space` on a big space). fnv1a is sequential, so
  // the key is the same as hashing the prefix and the sources in one pass.
  std::uint64_t h = fnv1a(std::to_string(major) + "." + std::to_string(minor) + "|" + main_file);
  h = fnv1a_sources(h);
  for (const auto& o : options) h = fnv1a(o + "\n", h);
  static const std::vector<std::string> include_options = [] {
    const std::string include = cuda_include_dir();
    std::vector<std::string> out = {"-I" + include};
    // CUDA 13 keeps libcu++ (cuda/std/..., which cooperative_groups.h includes) under cccl/.
    if (std::error_code ec; std::filesystem::is_directory(include + "/cccl", ec))
      out.push_back("-I" + include + "/cccl");
    return out;
  }();
  options.insert(options.end(), include_options.begin(), include_options.end());
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));

  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const NvrtcBuild>> memory;
  static std::map<std::string, std::shared_ptr<std::mutex>> in_flight;
  const std::string key = std::string(hex) + "|" + arch;
  std::shared_ptr<std::mutex> key_mutex;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = memory.find(key); it != memory.end()) return it->second;
    std::shared_ptr<std::mutex>& m = in_flight[key];
    if (!m) m = std::make_shared<std::mutex>();
    key_mutex = m;
  }
  // One build per key at a time: a second thread asking for it waits and takes the result.
  std::lock_guard<std::mutex> key_lock(*key_mutex);
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = memory.find(key); it != memory.end()) return it->second;
  }

  auto build = std::make_shared<NvrtcBuild>();
  build->arch = arch;
  build->built_for = target;
  build->estimated = fallback;

  // The main file is compiled through a one-line program so every .cuh is a "header".
  const auto compile = [&]() -> KernelBinary {
    const std::string program_text = "#include \"" + main_file + "\"\n";
    std::vector<const char*> header_texts, header_names;
    for (const auto& [name, text] : sources) {
      header_names.push_back(name.c_str());
      header_texts.push_back(text.c_str());
    }
    nvrtcProgram prog = nullptr;
    const std::string program_name = "ft_program_" + main_file + ".cu";
    check(api.create(&prog, program_text.c_str(), program_name.c_str(), int(header_texts.size()),
                     header_texts.data(), header_names.data()),
          "nvrtcCreateProgram");
    std::vector<const char*> opts;
    for (const auto& o : options) opts.push_back(o.c_str());
    const nvrtcResult r = api.compile(prog, int(opts.size()), opts.data());
    std::size_t log_size = 0;
    api.log_size(prog, &log_size);
    std::string log(log_size, '\0');
    if (log_size) api.log(prog, log.data());
    while (!log.empty() && log.back() == '\0') log.pop_back();
    if (r != NVRTC_SUCCESS) {
      api.destroy(&prog);
      std::string opt_text;
      for (const auto& o : options) opt_text += " " + o;
      throw std::runtime_error("nvrtc_build: compiling " + main_file + " for " + target +
                               " failed (" + api.error_string(r) + "), options" + opt_text + ":\n" +
                               log);
    }
    if (parse_ptxas_log(log).empty()) {
      // Never cache (nor hand out) a build without its resource report.
      api.destroy(&prog);
      throw std::runtime_error("nvrtc_build: compiling " + main_file + " for " + target +
                               " gave no ptxas resource report; program log:\n" + log);
    }
    std::size_t cubin_size = 0;
    check(api.cubin_size(prog, &cubin_size), "nvrtcGetCUBINSize");
    KernelBinary out;
    out.binary.assign(cubin_size, '\0');
    check(api.cubin(prog, out.binary.data()), "nvrtcGetCUBIN");
    api.destroy(&prog);
    out.log = std::move(log);
    return out;
  };
  // An entry without a resource report (a torn write by an older build, a corrupted row of
  // the store) is rebuilt.
  const auto valid = [](const KernelBinary& e) {
    return !e.binary.empty() && !parse_ptxas_log(e.log).empty();
  };
  const KernelBinaryRequest request{build_cache_dir(), hex, target,
                                    std::to_string(major) + "." + std::to_string(minor),
                                    prebuilt_kernel_dirs()};
  const std::shared_ptr<SharedKernelStore> store = shared_kernel_store();
  KernelBinary entry =
      cached_kernel_binary(request, store.get(), compile, valid, kernel_build_counters());
  build->cubin = std::move(entry.binary);
  build->log = std::move(entry.log);
  build->resources = parse_ptxas_log(build->log);
  for (auto& res : build->resources) {
    res.estimated = fallback;
    res.built_for = target;
  }
  std::lock_guard<std::mutex> lock(mutex);
  return memory.emplace(key, std::move(build)).first->second;
}

}  // namespace flowtune::cuda

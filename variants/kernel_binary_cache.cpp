#include "variants/kernel_binary_cache.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>

namespace flowtune {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

std::string read_file(const std::filesystem::path& path, bool* ok) {
  std::ifstream in(path, std::ios::binary);
  *ok = bool(in);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

void write_file_atomic(const std::filesystem::path& path, const std::string& data) {
  // A temporary file of its own, created exclusively (mkstemp: O_CREAT | O_EXCL), so that
  // concurrent writers (threads building ahead, the measuring worker, other processes, even in
  // other PID namespaces sharing the directory) never write into one another's file and never
  // rename another entry's bytes into place.
  std::string tmp = path.string() + ".tmpXXXXXX";
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0) return;  // the cache is an optimisation: an unwritable dir is not an error
  ::fchmod(fd, 0644);  // mkstemp makes 0600; entries stay readable as ofstream made them
  const char* p = data.data();
  std::size_t left = data.size();
  bool ok = true;
  while (left > 0) {
    const ssize_t k = ::write(fd, p, left);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) {
      ok = false;
      break;
    }
    p += k;
    left -= std::size_t(k);
  }
  if (::close(fd) != 0) ok = false;
  std::error_code ec;
  if (ok) std::filesystem::rename(tmp, path, ec);
  if (!ok || ec) std::filesystem::remove(tmp, ec);
}

// The log is written last: a reader takes an entry only when both files are there and valid.
void write_local(const KernelBinaryRequest& r, const KernelBinary& entry) {
  if (r.dir.empty()) return;
  std::error_code ec;
  std::filesystem::create_directories(r.dir, ec);
  const std::filesystem::path base = std::filesystem::path(r.dir) / r.key;
  write_file_atomic(base.string() + ".cubin", entry.binary);
  write_file_atomic(base.string() + ".log", entry.log);
}

std::mutex g_store_mutex;
std::shared_ptr<SharedKernelStore> g_store;

}  // namespace

std::string kernel_binary_hash(const KernelBinary& entry) {
  std::uint64_t h = 14695981039346656037ull;  // the FNV-1a 64 offset basis
  for (const std::string* part : {&entry.binary, &entry.log})
    for (unsigned char c : *part) {
      h ^= c;
      h *= 1099511628211ull;
    }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return hex;
}

KernelBuildCounts& KernelBuildCounts::operator+=(const KernelBuildCounts& o) {
  compiled += o.compiled;
  local_hits += o.local_hits;
  prebuilt_hits += o.prebuilt_hits;
  fetched += o.fetched;
  rejected += o.rejected;
  published += o.published;
  store_errors += o.store_errors;
  compile_s += o.compile_s;
  fetch_s += o.fetch_s;
  return *this;
}

KernelBuildCounts operator-(KernelBuildCounts a, const KernelBuildCounts& b) {
  a.compiled -= b.compiled;
  a.local_hits -= b.local_hits;
  a.prebuilt_hits -= b.prebuilt_hits;
  a.fetched -= b.fetched;
  a.rejected -= b.rejected;
  a.published -= b.published;
  a.store_errors -= b.store_errors;
  a.compile_s -= b.compile_s;
  a.fetch_s -= b.fetch_s;
  return a;
}

std::string kernel_build_counts_text(const KernelBuildCounts& c) {
  std::ostringstream out;
  out.setf(std::ios::fixed);
  out.precision(1);
  out << c.compiled << " compiled (" << c.compile_s << " s), " << c.local_hits
      << " local cache hits, ";
  if (c.prebuilt_hits) out << c.prebuilt_hits << " from the prebuilt cache, ";
  out << c.fetched << " fetched from the store (" << c.fetch_s << " s, " << c.rejected
      << " rejected), " << c.published << " published";
  if (c.store_errors) out << ", " << c.store_errors << " store errors";
  return out.str();
}

void KernelBuildCounters::add(const KernelBuildCounts& d) {
  compiled_ += d.compiled;
  local_hits_ += d.local_hits;
  prebuilt_hits_ += d.prebuilt_hits;
  fetched_ += d.fetched;
  rejected_ += d.rejected;
  published_ += d.published;
  store_errors_ += d.store_errors;
  compile_us_ += static_cast<long long>(d.compile_s * 1e6);
  fetch_us_ += static_cast<long long>(d.fetch_s * 1e6);
}

KernelBuildCounts KernelBuildCounters::get() const {
  KernelBuildCounts c;
  c.compiled = compiled_;
  c.local_hits = local_hits_;
  c.prebuilt_hits = prebuilt_hits_;
  c.fetched = fetched_;
  c.rejected = rejected_;
  c.published = published_;
  c.store_errors = store_errors_;
  c.compile_s = double(compile_us_.load()) * 1e-6;
  c.fetch_s = double(fetch_us_.load()) * 1e-6;
  return c;
}

namespace {
std::mutex& folders_mutex() {
  static std::mutex m;
  return m;
}
std::optional<KernelCacheFolders>& folders_override() {
  static std::optional<KernelCacheFolders> f;
  return f;
}
}  // namespace

void set_kernel_cache_folders(std::optional<KernelCacheFolders> folders) {
  std::lock_guard<std::mutex> lock(folders_mutex());
  folders_override() = std::move(folders);
}

std::optional<KernelCacheFolders> kernel_cache_folders() {
  std::lock_guard<std::mutex> lock(folders_mutex());
  return folders_override();
}

KernelBinary cached_kernel_binary(const KernelBinaryRequest& r, SharedKernelStore* store,
                                  const std::function<KernelBinary()>& compile,
                                  const std::function<bool(const KernelBinary&)>& valid,
                                  KernelBuildCounters& counters) {
  KernelBuildCounts d;
  const auto publish = [&](const KernelBinary& entry) {
    if (!store) return;
    StoredKernelBinary row;
    row.key = r.key;
    row.arch = r.arch;
    row.compiler_version = r.compiler_version;
    row.entry = entry;
    row.size_bytes = std::int64_t(entry.binary.size());
    row.hash = kernel_binary_hash(entry);
    try {
      store->publish(row);
      ++d.published;
    } catch (const std::exception&) {
      ++d.store_errors;
    }
  };

  // The entry of r.key in a folder of the local layout when both files are there and valid.
  const auto read_entry = [&](const std::string& dir) -> std::optional<KernelBinary> {
    const std::filesystem::path base = std::filesystem::path(dir) / r.key;
    bool ok_binary = false, ok_log = false;
    KernelBinary entry;
    entry.binary = read_file(base.string() + ".cubin", &ok_binary);
    entry.log = read_file(base.string() + ".log", &ok_log);
    if (ok_binary && ok_log && valid(entry)) return entry;
    return std::nullopt;
  };

  // 1. The local folder. An entry that is not valid (a torn write by an older build) is
  // replaced.
  if (!r.dir.empty()) {
    if (std::optional<KernelBinary> entry = read_entry(r.dir)) {
      ++d.local_hits;
      if (store) {
        bool there = true;
        try {
          there = store->contains(r.key);
        } catch (const std::exception&) {
          ++d.store_errors;
        }
        if (!there) publish(*entry);
      }
      counters.add(d);
      return std::move(*entry);
    }
  }

  // 2. The prebuilt folders (read-only: shipped with the package, or made by `tune
  // --prebuild-kernels`), in order. A valid entry is used as it is, never copied.
  for (const std::string& dir : r.prebuilt_dirs) {
    if (std::optional<KernelBinary> entry = read_entry(dir)) {
      ++d.prebuilt_hits;
      counters.add(d);
      return std::move(*entry);
    }
  }

  // 3. The shared store, verified.
  if (store) {
    const auto t0 = Clock::now();
    std::optional<StoredKernelBinary> row;
    try {
      row = store->fetch(r.key);
    } catch (const std::exception&) {
      ++d.store_errors;
    }
    if (row) {
      const bool intact = row->size_bytes == std::int64_t(row->entry.binary.size()) &&
                          row->hash == kernel_binary_hash(row->entry) && valid(row->entry);
      if (intact) {
        write_local(r, row->entry);
        ++d.fetched;
        d.fetch_s += seconds_since(t0);
        counters.add(d);
        return std::move(row->entry);
      }
      ++d.rejected;  // compiled below; its publish replaces the row
    }
  }

  // 4. Compile.
  const auto t0 = Clock::now();
  KernelBinary entry;
  try {
    entry = compile();
  } catch (...) {
    counters.add(d);
    throw;
  }
  ++d.compiled;
  d.compile_s += seconds_since(t0);
  write_local(r, entry);
  publish(entry);
  counters.add(d);
  return entry;
}

void set_shared_kernel_store(std::shared_ptr<SharedKernelStore> store) {
  std::lock_guard<std::mutex> lock(g_store_mutex);
  g_store = std::move(store);
}

std::shared_ptr<SharedKernelStore> shared_kernel_store() {
  std::lock_guard<std::mutex> lock(g_store_mutex);
  return g_store;
}

KernelBuildCounters& kernel_build_counters() {
  static KernelBuildCounters counters;
  return counters;
}

}  // namespace flowtune

// Publishing and fetching compiled kernels (table kernel_binaries).
#include "db/kernel_binary_store.hpp"

#include <stdexcept>
#include <vector>

#include "db/base64.hpp"
#include "db/store.hpp"

namespace flowtune::db {

void KernelBinaryStore::record_kernel_binary(const KernelBinaryRow& row) {
  const std::vector<std::uint8_t> bytes(row.binary.begin(), row.binary.end());
  const std::string text = base64_encode(bytes);
  store_->retrying("cannot record kernel binary '" + row.key + "'", [&] {
    Connection& c = store_->connection();
    Statement q(c,
                "INSERT INTO kernel_binaries(cache_key, arch, nvrtc_version, size_bytes, hash, "
                "binary_base64, log, host, created_s) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT(cache_key) DO UPDATE SET arch = excluded.arch, "
                "nvrtc_version = excluded.nvrtc_version, size_bytes = excluded.size_bytes, "
                "hash = excluded.hash, binary_base64 = excluded.binary_base64, "
                "log = excluded.log, host = excluded.host, created_s = excluded.created_s");
    q.bind(1, row.key);
    q.bind(2, row.arch);
    q.bind(3, row.nvrtc_version);
    q.bind(4, row.size_bytes);
    q.bind(5, row.hash);
    q.bind(6, text);
    q.bind(7, row.log);
    q.bind(8, row.host);
    q.bind(9, store_->now_s());
    q.exec();
  });
}

std::optional<KernelBinaryRow> KernelBinaryStore::kernel_binary(const std::string& key) const {
  return store_->retrying("cannot read kernel binary '" + key + "'", [&] {
    std::optional<KernelBinaryRow> out;
    Connection& c = store_->connection();
    Statement q(c,
                "SELECT arch, nvrtc_version, size_bytes, hash, binary_base64, log, host, "
                "created_s FROM kernel_binaries WHERE cache_key = ?");
    q.bind(1, key);
    if (!q.executeStep()) return out;
    KernelBinaryRow r;
    r.key = key;
    r.arch = q.getColumn(0).getString();
    r.nvrtc_version = q.getColumn(1).getString();
    r.size_bytes = q.getColumn(2).getInt64();
    r.hash = q.getColumn(3).getString();
    const std::string text = q.getColumn(4).getString();
    try {
      const std::vector<std::uint8_t> bytes = base64_decode(text);
      r.binary.assign(bytes.begin(), bytes.end());
    } catch (const std::invalid_argument&) {
      r.binary = text;  // fails the reader's checks
    }
    r.log = q.getColumn(5).getString();
    r.host = q.getColumn(6).getString();
    r.created_s = q.getColumn(7).getDouble();
    out = std::move(r);
    return out;
  });
}

bool KernelBinaryStore::has_kernel_binary(const std::string& key) const {
  return store_->retrying("cannot read kernel binary '" + key + "'", [&] {
    Statement q(store_->connection(), "SELECT 1 FROM kernel_binaries WHERE cache_key = ?");
    q.bind(1, key);
    return q.executeStep();
  });
}

std::int64_t KernelBinaryStore::count_kernel_binaries() const {
  return store_->retrying("cannot count kernel binaries", [&] {
    Statement q(store_->connection(), "SELECT count(*) FROM kernel_binaries");
    q.executeStep();
    return q.getColumn(0).getInt64();
  });
}

}  // namespace flowtune::db

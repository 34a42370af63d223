// db::Repository: opens the store, then hands it to each of its parts.
#include "db/repository.hpp"

#include "db/store.hpp"

namespace flowtune::db {

StoreOwner::StoreOwner(std::unique_ptr<Store> store) : owned_(std::move(store)) {}
StoreOwner::~StoreOwner() = default;
StoreOwner::StoreOwner(StoreOwner&&) noexcept = default;
StoreOwner& StoreOwner::operator=(StoreOwner&&) noexcept = default;

Repository::Repository(const std::string& path, OpenMode mode)
    : StoreOwner(open_store(path, mode)),
      RunStore(*owned_),
      ResultStore(*owned_),
      FailureStore(*owned_),
      WorkloadStore(*owned_),
      WorkQueue(*owned_),
      ImportStore(*owned_),
      KernelBinaryStore(*owned_) {
  if (mode == OpenMode::read_write) mark_dead_runs_aborted();
}

Repository::~Repository() = default;
Repository::Repository(Repository&&) noexcept = default;
Repository& Repository::operator=(Repository&&) noexcept = default;

const std::string& Repository::path() const {
  return owned_->path();
}

void Repository::set_retry_limit_s(double seconds) {
  owned_->set_retry_limit_s(seconds);
}

double Repository::store_now_s() const {
  return owned_->now_s();
}

int Repository::schema_version() const {
  return owned_->read_schema_version();
}

std::string Repository::journal_mode() const {
  Connection& c = owned_->connection();
  if (c.dialect() == Dialect::postgresql) return "postgresql";
  Statement q(c, "PRAGMA journal_mode");
  q.executeStep();
  return q.getColumn(0).getString();
}

}  // namespace flowtune::db

// The shared state of a store and the choice of its back-end.
#include "db/store.hpp"

#include "db/schema.hpp"

namespace flowtune::db {

int Store::read_schema_version() const {
  try {
    Statement q(connection(), "SELECT coalesce(max(version), 0) FROM schema_version");
    q.executeStep();
    return q.getColumn(0).getInt();
  } catch (const BackendError& e) {
    fail(std::string("cannot read schema_version (") + e.what() + ")");
  }
}

std::unique_ptr<Store> open_store(const std::string& path, OpenMode mode) {
  return is_postgresql_url(path) ? open_postgresql_store(path, mode)
                                 : open_sqlite_store(path, mode);
}

std::string newer_schema_problem(int version) {
  return "schema version " + std::to_string(version) +
         " is newer than this flowtune understands (" + std::to_string(kSchemaVersion) +
         "); use a newer flowtune";
}

}  // namespace flowtune::db

// The PostgreSQL store in a build without libpq (FLOWTUNE_WITH_POSTGRESQL off, or libpq-dev
// absent): a postgresql:// URL is refused with a message saying so.
#include "db/connection.hpp"
#include "db/repository.hpp"

namespace flowtune::db {

std::unique_ptr<Connection> postgresql_connection(const std::string&) {
  throw BackendError(
      "this flowtune was built without PostgreSQL (install libpq-dev and rebuild with "
      "-DFLOWTUNE_WITH_POSTGRESQL=ON)");
}

bool postgresql_supported() {
  return false;
}

}  // namespace flowtune::db

// --storage values (db/store_url.hpp): what is refused, and the password kept out of what is
// shown, stored or passed on.
#include <gtest/gtest.h>

#include "db/store_url.hpp"

namespace flowtune::db {
namespace {

TEST(StoreUrl, PathsAndWellFormedUrlsAreAccepted) {
  for (const char* ok :
       {"flowtune.db", "/tmp/a b/x.db", "./runs/2024.db", ":memory:", "postgresql://",
        "postgresql:///tuning", "postgresql://localhost/tuning", "postgres://u@h:5432/db",
        "postgresql://u:p%40ss@h1:5432,h2:5433/db?sslmode=require&connect_timeout=5",
        "postgresql://[::1]:5432/db", "postgresql://%2Fvar%2Frun%2Fpostgresql/db"})
    EXPECT_EQ(storage_problem(ok), std::nullopt) << ok;
}

TEST(StoreUrl, MalformedValuesAreRefusedNotTakenAsFileNames) {
  for (const char* bad :
       {"", "postgresql:tuning", "postgresql:/tuning", "PostgreSQL://x/y", "postgres:x",
        "mysql://h/db", "sqlite://x.db", "postgresql://h:0/db", "postgresql://h:99999/db",
        "postgresql://h:54x/db", "postgresql://h:/db", "postgresql://h/db?=x",
        "postgresql://h/db?sslmode", "postgresql://h/d b", "postgresql://h/db%zz",
        "postgresql://u@h/d/b", "postgresql://[::1/db", "runs/"}) {
    const auto problem = storage_problem(bad);
    EXPECT_NE(problem, std::nullopt) << "'" << bad << "'";
  }
  EXPECT_NE(storage_problem("postgresql:tuning")->find("not a valid PostgreSQL URL"),
            std::string::npos);
}

TEST(StoreUrl, ThePasswordIsRedactedInBothForms) {
  EXPECT_EQ(redact_store_url("postgresql://u:s3cret@h:5432/db"), "postgresql://u@h:5432/db");
  EXPECT_EQ(store_url_password("postgresql://u:s3%40cret@h/db"), "s3@cret");
  EXPECT_EQ(redact_store_url("postgresql://u@h/db?password=s3cret&sslmode=require"),
            "postgresql://u@h/db?sslmode=require");
  EXPECT_EQ(store_url_password("postgresql://u@h/db?sslmode=require&password=x%20y"), "x y");
  EXPECT_EQ(redact_store_url("postgresql://u@h/db?password=s3cret"), "postgresql://u@h/db");
  EXPECT_EQ(redact_store_url("postgres://u:p@h/db"), "postgres://u@h/db");
  EXPECT_EQ(redact_store_url("a.db"), "a.db");
  EXPECT_EQ(store_url_password("postgresql://u@h/db"), "");
  EXPECT_EQ(store_url_password("u:p@h.db"), "");
  EXPECT_EQ(redact_store_urls("tune --storage postgresql://u:pw@h/db --workers 2 "
                              "--db=postgres://v:x@h/d?password=y"),
            "tune --storage postgresql://u@h/db --workers 2 --db=postgres://v@h/d");
  // As libpq, the user part ends at the first '@': a raw '@' in a password leaves a host
  // "b@h" that is refused, and nothing of the password before it is shown.
  EXPECT_EQ(redact_store_url("postgresql://u:a@b@h/db"), "postgresql://u@b@h/db");
  EXPECT_NE(storage_problem("postgresql://u:a@b@h/db"), std::nullopt);
  // A '?' in a password is the password's, as for libpq.
  EXPECT_EQ(store_url_password("postgresql://u:p?x@h/db"), "p?x");
  EXPECT_EQ(redact_store_url("postgresql://u:p?x@h/db"), "postgresql://u@h/db");
  // An empty user keeps its '@' (without it the host part could read as a user).
  EXPECT_EQ(redact_store_url("postgresql://:pw@h/db"), "postgresql://@h/db");
  EXPECT_EQ(storage_problem("postgresql://@h/db"), std::nullopt);
}

// Fuzzing (crash-5e88cf..., corpus password_param_holds_the_only_slash.txt): without a user
// part or a path, the first '/' may sit in a ?password= value; removing it left an '@' further
// on first, so that the redacted URL read as user "h?x=c" (and was refused) where the original
// named host h. The redaction keeps an empty path, so that the rest splits as before.
TEST(StoreUrl, RedactingAQueryPasswordKeepsTheHostAHost) {
  const std::string url = "postgresql://h?password=a/b&x=c@d";
  ASSERT_EQ(storage_problem(url), std::nullopt);
  EXPECT_EQ(store_url_password(url), "a/b");
  const std::string redacted = redact_store_url(url);
  EXPECT_EQ(redacted, "postgresql://h/?x=c@d");
  EXPECT_EQ(storage_problem(redacted), std::nullopt);
  EXPECT_EQ(store_url_password(redacted), "");
  EXPECT_EQ(redact_store_url(redacted), redacted);
  // Nothing removed, nothing added.
  EXPECT_EQ(redact_store_url("postgresql://h?x=c@d"), "postgresql://h?x=c@d");
}

// Fuzzing found a word of 120 URLs (no blanks) that took 250 ms to redact: the inner URLs were
// redacted recursively, exponential in their number. 200 here would not end.
TEST(StoreUrl, AWordOfManyUrlsLosesEveryPassword) {
  std::string word;
  for (int i = 0; i < 200; ++i)
    word += "postgresql://u" + std::to_string(i) + ":pw" + "@h/d?password=pq&";
  const std::string redacted = redact_store_urls("run " + word + " end");
  EXPECT_EQ(redacted.find("pw"), std::string::npos);
  EXPECT_EQ(redacted.find("pq"), std::string::npos);
  EXPECT_NE(redacted.find("postgresql://u199@h/d"), std::string::npos);
  EXPECT_EQ(redacted.substr(0, 4), "run ");
  EXPECT_EQ(redacted.substr(redacted.size() - 4), " end");
}

}  // namespace
}  // namespace flowtune::db

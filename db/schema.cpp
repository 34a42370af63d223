// db

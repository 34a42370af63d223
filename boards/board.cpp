// boards

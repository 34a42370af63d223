// reports

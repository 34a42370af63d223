// tuner

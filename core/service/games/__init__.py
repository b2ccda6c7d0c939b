"""Running games and their time: the engine games this process holds, one command applied in
a transaction, windows' deadlines and when they fall. Above `delivery`."""

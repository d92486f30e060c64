# How selfplay-dbc4e06-n2000-s113.xqg was made (cotuong datagen); --append checks the settings line.
command: ./cotuong-e14bd08 datagen --out selfplay-dbc4e06-n2000-s113.xqg --games 100000 --seed 113 --nodes 2000 --threads 2 --quiet --append
settings: seed 113; nodes 2000; hash 8 MB; random plies 10 of 4 lines within 100; max opening score 300; openings start; adjudication win 1000 for 8 plies, draw 10 for 10 plies from ply 80, play-out 0.1; max plies 400; engine Cotuong 0.1.0; evaluation net 7eb396d916ed5d33

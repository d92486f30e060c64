# How selfplay-23a1327-n2000-s111.xqg was made (cotuong datagen); --append checks the settings line.
command: ./cotuong datagen --out selfplay-23a1327-n2000-s111.xqg --games 100000 --seed 111 --nodes 2000 --threads 16 --quiet
settings: seed 111; nodes 2000; hash 8 MB; random plies 10 of 4 lines within 100; max opening score 300; openings start; adjudication win 1000 for 8 plies, draw 10 for 10 plies from ply 80, play-out 0.1; max plies 400; engine Cotuong 0.1.0; evaluation net 625ee99b55b8a1b2

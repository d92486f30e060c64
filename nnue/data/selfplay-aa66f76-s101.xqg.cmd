# How selfplay-aa66f76-s101.xqg was made (cotuong datagen); --append checks the settings line.
command: ./cotuong-aa66f76 datagen --out selfplay-aa66f76-s101.xqg --games 20000 --seed 101 --threads 2 --quiet --append
settings: seed 101; nodes 5000; hash 8 MB; random plies 10 of 4 lines within 100; max opening score 300; openings start; adjudication win 1000 for 8 plies, draw 10 for 10 plies from ply 80, play-out 0.1; max plies 400; engine Cotuong 0.1.0; evaluation net 351ac232b1aae80b

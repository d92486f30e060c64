# How selfplay-2ab616c-n2000-s103.xqg was made (cotuong datagen); --append checks the settings line.
command: ./cotuong-2ab616c datagen --out selfplay-2ab616c-n2000-s103.xqg --games 1000000 --seed 103 --threads 1 --quiet --append --nodes 2000
settings: seed 103; nodes 2000; hash 8 MB; random plies 10 of 4 lines within 100; max opening score 300; openings start; adjudication win 1000 for 8 plies, draw 10 for 10 plies from ply 80, play-out 0.1; max plies 400; engine Cotuong 0.1.0; evaluation net 0af8f47fbf3c4fa1

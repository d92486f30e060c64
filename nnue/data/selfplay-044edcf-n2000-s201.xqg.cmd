# How selfplay-044edcf-n2000-s201.xqg was made (cotuong datagen); --append checks the settings line.
command: /work/tools/cotuong-044edcf datagen --out selfplay-044edcf-n2000-s201.xqg --games 100000 --seed 201 --nodes 2000 --vary-nodes 0.1 --threads 2 --quiet --append
settings: seed 201; nodes 2000 (varied by 0.1 per game); hash 8 MB; random plies 10 of 4 lines within 100; max opening score 300; openings start; adjudication win 1000 for 8 plies, draw 10 for 10 plies from ply 80, play-out 0.1; max plies 400; engine Cotuong 0.1.0; evaluation net f06864fb2ecfc2da

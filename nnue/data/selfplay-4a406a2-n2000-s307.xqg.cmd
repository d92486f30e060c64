# How selfplay-4a406a2-n2000-s307.xqg was made (cotuong datagen); --append checks the settings line.
command: /work/tools/cotuong-4a406a2 datagen --out selfplay-4a406a2-n2000-s307.xqg --games 200000 --seed 307 --nodes 2000 --vary-nodes 0.1 --random-plies 12 --opening-lines 6 --threads 2 --quiet
settings: seed 307; nodes 2000 (varied by 0.1 per game); hash 8 MB; random plies 12 of 6 lines within 100; max opening score 300; openings start; adjudication win 1000 for 8 plies, draw 10 for 10 plies from ply 80, play-out 0.1; max plies 400; engine Cotuong 0.1.0; evaluation net 324854678da50bb3

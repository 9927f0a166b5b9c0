#!/usr/bin/python3
"""GNU Go against itself, for the analysis benchmark's games (docs/performance.md, "Analysis"):
python3 bench/analysis/selfplay.py SIZE MOVES OUT.sgf plays up to MOVES moves at level 1 with a
fixed seed and writes them as an SGF record. gnugo-9x9-60.sgf and gnugo-19x19-250.sgf were made
with it."""
import subprocess, sys
size, n, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
p=subprocess.Popen(['/usr/games/gnugo','--mode','gtp','--level','1','--seed','7'],stdin=subprocess.PIPE,stdout=subprocess.PIPE,text=True)
def gtp(c):
    p.stdin.write(c+"\n"); p.stdin.flush()
    out=[]
    while True:
        l=p.stdout.readline()
        if l.strip()=="" and out: break
        if l.strip(): out.append(l.rstrip("\n"))
    s="\n".join(out)
    return s[2:] if s.startswith("= ") else s[1:]
gtp(f'boardsize {size}'); gtp('clear_board'); gtp('komi 6.5')
played=0; moves=[]
while played < n:
    col='black' if played%2==0 else 'white'
    m=gtp(f'genmove {col}').strip()
    if m.upper()=='RESIGN': break
    moves.append((col, m.upper()))
    played+=1
print(played, file=sys.stderr)
def sgfpt(v):
    if v=='PASS': return ''
    letters='ABCDEFGHJKLMNOPQRSTUVWXYZ'
    x=letters.index(v[0]); y=size-int(v[1:])
    return chr(97+x)+chr(97+y)
body=''.join(f";{'B' if c=='black' else 'W'}[{sgfpt(v)}]" for c,v in moves)
open(out,'w').write(f"(;GM[1]FF[4]CA[UTF-8]SZ[{size}]KM[6.5]RU[Japanese]PB[GNU Go 3.8 level 1]PW[GNU Go 3.8 level 1]C[GNU Go 3.8 at level 1 against itself, seed 7: a fixture for the analysis benchmark (docs/performance.md).]{body})\n")

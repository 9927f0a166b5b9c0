#!/usr/bin/env python3
# The time from asking about a review board's position to its answer, with the server's own house
# worker (GNU Go 3.8, level 10): POST /api/v1/reviews/{id}/analysis, then GET until done
# (docs/performance.md, "Analysis"). A measuring script, not a test: it polls every 50 ms.
#   python3 bench/analysis/position_time.py http://127.0.0.1:PORT GAME.sgf 50,100,150
import json, re, sys, time, urllib.request
base = sys.argv[1]
sgf = open(sys.argv[2]).read()
def call(method, path, body=None, token=None):
    req = urllib.request.Request(base + path, method=method, data=None if body is None else json.dumps(body).encode())
    if body is not None: req.add_header('Content-Type', 'application/json')
    if token: req.add_header('Authorization', 'Bearer ' + token)
    try:
        with urllib.request.urlopen(req) as r: return r.status, json.loads(r.read() or b'null'), r.headers
    except urllib.error.HTTPError as e: return e.code, json.loads(e.read() or b'null'), e.headers
st, body, headers = call('POST', '/api/v1/register', {'username': 'timer', 'password': 'a long enough password'})
token = re.search(r'tengen_session=([^;]+)', headers.get('Set-Cookie', '')).group(1) if headers.get('Set-Cookie') else body.get('token')
st, body, _ = call('POST', '/api/v1/reviews', {'sgf': sgf}, token)
review = body['review']['id']
cols = 'ABCDEFGHJKLMNOPQRST'
size = int(re.search(r'SZ\[(\d+)\]', sgf).group(1))
moves = re.findall(r';([BW])\[([a-s]{2}|)\]', sgf)
vertex = lambda v: 'pass' if not v else cols[ord(v[0]) - 97] + str(size - (ord(v[1]) - 97))
line = [{'color': 'black' if c == 'B' else 'white', 'vertex': vertex(v)} for c, v in moves]
for depth in [int(d) for d in sys.argv[3].split(',')]:
    t0 = time.monotonic()
    st, view, _ = call('POST', f'/api/v1/reviews/{review}/analysis', {'node': depth, 'line': line[:depth]}, token)
    assert st in (200, 202), (st, view)
    while view['state'] not in ('done', 'failed'):
        time.sleep(0.05)
        st, view, _ = call('GET', f'/api/v1/reviews/{review}/analysis/{view["id"]}', None, token)
    print(f'move {depth}: {view["state"]} in {time.monotonic() - t0:.2f} s: {view.get("position")}')

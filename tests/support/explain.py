"""The issue's example of a value used twice (a, by e = a * b and by f = a + c), explained in CPython
(runtime/test_explain.py), in Chromium (pages/test_node_explain.py) and in the other engines
(engines/smoke_cases.py)."""

USED_TWICE = '''a = Value(2.0, label='a'); b = Value(-3.0, label='b'); c = Value(1.0, label='c')
e = a * b; e.label = 'e'
f = a + c; f.label = 'f'
g = Value(-2.0, label='g'); h = Value(4.0, label='h')
L = e * g + f * h; L.label = 'L'
L.backward()
draw_dot(L)
'''
# As Selenium types it: one line (the editor would indent a second).
USED_TWICE_ON_ONE_LINE = '; '.join(USED_TWICE.strip().splitlines())

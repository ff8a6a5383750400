#!/usr/bin/env python3
# Issue 15 by hand: 200 seeded fault sets (1-20 faulty leaves; 100 on 8x8,
# 100 on 16x16; patterns random/spread/row/column), one host per leaf:
# compile --engine vtftr; count sets with a credit loop (V020, must be 0),
# sets with unreachable pairs (V001) and whether faults then cover every
# row and column (the oracle, from the fault list header); ibdmchk with
# the emitted SL/SL2VL files on every fully routable 8x8 set and every
# fourth 16x16 one. Usage: benches/vtftr_sets.py [ROUTEC] [DIR]
import subprocess, re, os, sys, itertools
B = sys.argv[1] if len(sys.argv) > 1 else 'target/release/routec'
D = sys.argv[2] if len(sys.argv) > 2 else '/tmp/vtftr-sets'
os.makedirs(D, exist_ok=True)
pats=['random','spread','row','column']
res={'sets':0,'clean':0,'unroutable_sets':0,'v020':0,'bad_unroutable':0,'ibd_clean':0,'ibd_loop':0,'ibd_runs':0,'rcr_sets':0}
for i in range(200):
    n = 8 if i < 100 else 16
    pat = pats[i % 4]; k = 1 + (i*7) % 20
    lim = {'random': n*n}.get(pat, n)
    k = min(k, lim)
    t=f'{D}/s{i}.topo'
    subprocess.run([B,'-q','gen','ft2d','--nx',str(n),'--ny',str(n),'--hosts','1','--fail-leaves',str(k),'--fail-pattern',pat,'--seed',str(i),'-o',t],check=True)
    head=open(t+'.faults').readline()
    dead=set((int(a),int(b)) for a,b in re.findall(r'\((\d+),(\d+)\)',head))
    cover = all(any((x,y) in dead for x in range(n)) for y in range(n)) and all(any((x,y) in dead for y in range(n)) for x in range(n))
    out=f'{D}/o{i}'
    p=subprocess.run([B,'compile',t,'--faults',t+'.faults','--engine','vtftr','-o',out,'--emit','fdbs,report','--allow-invalid'],capture_output=True,text=True)
    err=p.stderr
    res['sets']+=1
    if 'V020' in err: res['v020']+=1; print('V020!', i)
    v001 = 'V001' in err
    if v001:
        res['unroutable_sets']+=1
        if not cover: res['bad_unroutable']+=1; print('unroutable without cover!', i)
    elif p.returncode==0: res['clean']+=1
    if re.search(r'RCR [1-9]|CRC [1-9]', err): res['rcr_sets']+=1
    if not v001 and (n==8 or i%4==0):
        q=subprocess.run(['ibdmchk','-s','opensm-subnet.lst','-f','opensm.fdbs','-m','opensm.mcfdbs','-c','ibdmchk.psl','-d','ibdmchk.sl2vl'],cwd=out,capture_output=True,text=True)
        txt=q.stdout+q.stderr
        res['ibd_runs']+=1
        if '-I- no credit loops found' in txt: res['ibd_clean']+=1
        elif '-E- credit loops in routing' in txt: res['ibd_loop']+=1; print('ibdmchk loop', i)
        else: print('ibdmchk no verdict', i, txt[-300:])
print(res)

set -x
export PATH=/usr/local/cuda/bin:$PATH RES=$OUT/r; mkdir -p $RES
KWB_GPU_BUILD=$PWD/build-gpu KWB_REVISION=$REV bash scripts/gpu-check.sh build > $RES/build.txt 2>&1; tail -3 $RES/build.txt
B=build-gpu; K=$B/cli/kwb
timeout 200 $B/tests/gpu/test_sgemm --gtest_filter='WgmmaEveryShape.*:*EdgeCase*wgmma*:*Correctness*wgmma*:*AlphaWithoutBeta*wgmma*:*TensorCore*wgmma*:*Property*wgmma*:*MemorySafety*wgmma*' > $RES/wgmma-tests.txt 2>&1; echo tests rc=$?; grep -E "PASSED|FAILED|Failure" $RES/wgmma-tests.txt | head
$K run --kernels sgemm.warp_tiled,sgemm.wgmma,sgemm.mma_multistage,cublas.sgemm,cublas.hgemm_f32acc --shapes 256,512,768,1024,1000,2048,4096,8192,511x513x1025,256x384x640 --json $RES/table34.json > $RES/table34.txt 2>&1; echo run rc=$?
python3 scripts/kwb_cases.py 2>/dev/null | head -0
python3 - $RES/table34.json <<'PY'
import json,sys
d=json.load(open(sys.argv[1])); med={}
for c in d['cases']:
    s=c['size'] if isinstance(c['size'],str) else json.dumps(c['size'])
    med[(c['kernel'],s)]=(c.get('summary',{}).get('median'),c.get('ranKernel'),c.get('status'))
shapes=sorted({s for _,s in med},key=lambda x:x)
for s in shapes:
    g=lambda k: med.get((k,s),(None,None,None))
    def pct(k,r):
        a,b=g(k)[0],g(r)[0]
        return f"{100*b/a:6.1f}%" if a and b else "   -  "
    print(f"{s:24s} wt/sgemm {pct('sgemm.warp_tiled','cublas.sgemm')}  wgmma/h {pct('sgemm.wgmma','cublas.hgemm_f32acc')}  mma/h {pct('sgemm.mma_multistage','cublas.hgemm_f32acc')}  wgmma ran: {g('sgemm.wgmma')[1]} {g('sgemm.wgmma')[2]}")
PY
KWB_NCU_CASES="sgemm.wgmma:4096 cublas.hgemm_f32acc:4096 sgemm.wgmma:8192 cublas.hgemm_f32acc:8192 sgemm.wgmma:511x513x1025 cublas.hgemm_f32acc:511x513x1025" KWB_GPU_BUILD=$PWD/build-gpu bash scripts/gpu-check.sh ncu-timer > $RES/ncu-timer.txt 2>&1; tail -20 $RES/ncu-timer.txt
timeout 240 ncu --clock-control none -k regex:"mma|Mma|nvjet|gemm" --launch-skip 4 --launch-count 4 --section SpeedOfLight --section ComputeWorkloadAnalysis --section WarpStateStats --section Occupancy $K run --timer host --samples 3 --kernels sgemm.mma_multistage,cublas.hgemm_f32acc --shapes 4096 > $RES/ncu-mma.txt 2>&1; echo ncu rc=$?; grep -E "^  [a-zA-Z_].*\(|Duration|Compute \(SM\) Throughput|Issue Slots Busy|Executed Ipc A|Stall|Pipe|Achieved Occupancy" $RES/ncu-mma.txt | head -40
timeout 200 python3 scripts/bench-inputs.py --kwb $K --skip gui preset > $RES/bench-inputs.txt 2>&1; cat $RES/bench-inputs.txt | head -20
cd $OUT && tar czf r.tgz r && rm -rf r

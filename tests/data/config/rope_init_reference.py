# An independent NumPy transcription of transformers main's ROPE_INIT_FUNCTIONS at init (seq_len
# None; docs/spec/conventions.md), config standardisation included (v4 rope_scaling with
# `type`, top-level rope_theta / partial_rotary_factor / original_max_position_embeddings → v5
# rope_parameters). For each case of CASES.json, in the v5 form and converted to the v4 form, it
# writes the config to OUTDIR, runs `POSLAB compute frequencies --config` and compares inv_freq
# and attention_factor (relative 2e-6; NumPy's float32 pow differs from PyTorch's by an ulp).
#   /usr/bin/python3 rope_init_reference.py POSLAB CASES.json OUTDIR   → exit 1 on any mismatch
import json, math, subprocess, sys
import numpy as np
f32 = np.float32
P = sys.argv[1]

def standardize(cfg):
    if 'rope_parameters' in cfg:
        rp = dict(cfg['rope_parameters'])
    else:
        rp = dict(cfg.get('rope_scaling') or {})
    rp.setdefault('rope_type', rp.get('type', 'default'))
    rp.setdefault('rope_theta', cfg.get('rope_theta', 10000.0))
    if cfg.get('partial_rotary_factor') is not None:
        rp['partial_rotary_factor'] = cfg['partial_rotary_factor']
    if rp['rope_type'] in ('llama3', 'yarn', 'longrope'):
        if 'original_max_position_embeddings' in cfg:
            rp['original_max_position_embeddings'] = cfg['original_max_position_embeddings']
        else:
            rp.setdefault('original_max_position_embeddings', cfg['max_position_embeddings'])
    return rp

def dims(cfg, rp):
    hd = cfg.get('head_dim') or cfg['hidden_size'] // cfg['num_attention_heads']
    return int(hd * rp.get('partial_rotary_factor', 1.0))

def pow_f32(base, dim):
    e = (np.arange(0, dim, 2, dtype=np.int64).astype(f32) / f32(dim)).astype(f32)
    return np.power(f32(base), e, dtype=f32)

def ref(cfg):
    rp = standardize(cfg); t = rp['rope_type']; base = rp['rope_theta']; dim = dims(cfg, rp)
    if t in ('default', 'dynamic'):
        return (f32(1) / pow_f32(base, dim)), 1.0
    if t == 'linear':
        return (f32(1) / pow_f32(base, dim)) / f32(rp['factor']), 1.0
    if t == 'yarn':
        factor = rp.get('factor'); orig = rp['original_max_position_embeddings']
        if factor is None: factor = cfg['max_position_embeddings'] / orig
        af = rp.get('attention_factor'); ms = rp.get('mscale'); msa = rp.get('mscale_all_dim')
        def gm(s, m=1): return 1.0 if s <= 1 else 0.1 * m * math.log(s) + 1.0
        if af is None:
            af = gm(factor, ms) / gm(factor, msa) if (ms and msa) else gm(factor)
        bf = rp.get('beta_fast') or 32; bs = rp.get('beta_slow') or 1
        trunc = rp.get('truncate', True)
        def cd(r): return (dim * math.log(orig / (r * 2 * math.pi))) / (2 * math.log(base))
        lo, hi = cd(bf), cd(bs)
        if trunc: lo, hi = math.floor(lo), math.ceil(hi)
        lo, hi = max(lo, 0), min(hi, dim - 1)
        if lo == hi: hi += 0.001
        ramp = np.clip((np.arange(dim // 2, dtype=f32) - f32(lo)) / f32(hi - lo), 0, 1).astype(f32)
        pf = pow_f32(base, dim)
        ex = f32(1) / pf; it = f32(1) / (f32(factor) * pf)
        ef = f32(1) - ramp
        return (it * (f32(1) - ef) + ex * ef).astype(f32), af
    if t == 'longrope':
        factor = rp.get('factor'); orig = rp['original_max_position_embeddings']
        if factor is None: factor = cfg['max_position_embeddings'] / orig
        af = rp.get('attention_factor')
        if af is None: af = 1.0 if factor <= 1 else math.sqrt(1 + math.log(factor) / math.log(orig))
        ext = np.array(rp['short_factor'], dtype=f32)
        return (f32(1) / (ext * pow_f32(base, dim))).astype(f32), af
    if t == 'llama3':
        inv = f32(1) / pow_f32(base, dim)
        fa, lo, hi, old = rp['factor'], rp['low_freq_factor'], rp['high_freq_factor'], rp['original_max_position_embeddings']
        lw, hw = old / lo, old / hi
        wl = f32(2 * math.pi) / inv
        out = np.where(wl > f32(lw), inv / f32(fa), inv).astype(f32)
        sm = ((f32(old) / wl - f32(lo)) / f32(hi - lo)).astype(f32)
        smoothed = ((f32(1) - sm) * out / f32(fa) + sm * out).astype(f32)
        med = (~(wl < f32(hw))) & (~(wl > f32(lw)))
        return np.where(med, smoothed, out).astype(f32), 1.0
    raise ValueError(t)

def v4(cfg):
    c = {k: v for k, v in cfg.items() if k != 'rope_parameters'}
    rp = dict(cfg['rope_parameters']); c['rope_theta'] = rp.pop('rope_theta')
    t = rp.pop('rope_type')
    if t != 'default' or rp: c['rope_scaling'] = dict(type=t, **rp)
    return c

cases = json.load(open(sys.argv[2]))
out = sys.argv[3]
worst = 0; bad = 0
for name, cfg in cases.items():
    for form, c in (('v5', cfg), ('v4', v4(cfg))):
        want, waf = ref(c)
        path = f'{out}/{name}_{form}.json'; json.dump(c, open(path, 'w'))
        r = subprocess.run([P, 'compute', 'frequencies', '--config', path], capture_output=True, text=True)
        if r.returncode: print(name, form, 'ERROR', r.stderr.strip()); bad += 1; continue
        o = json.loads(r.stdout); got = np.array(o['inv_freq'])
        rel = np.max(np.abs(got - want.astype(float)) / np.abs(want.astype(float))) if got.shape == want.shape else float('inf')
        afrel = abs(o['attention_factor'] - waf) / waf
        worst = max(worst, rel, afrel)
        ok = rel <= 2e-6 and afrel <= 2e-6
        bad += not ok
        print(f'{name:28s} {form} {"ok " if ok else "BAD"} inv_freq rel {rel:.2e} attention_factor {o["attention_factor"]:.9g} vs {waf:.9g}')
print('worst', worst, 'bad', bad)
sys.exit(1 if bad else 0)

"""How far apart two counts of one code are, and two counts of different code, in public/data.

The limits behind store.SameCodeCounts and store.MissSlack (collector count -redo-unhashed
identifies a build recorded without a code hash by its counts): over every pair of counting runs
of one code hash (current and superseded runs of protocol 7, disturbed runs left out), the largest
difference of each callgrind event in a test; over every pair of builds of one cell with different
code hashes, per mode, the least of their largest I1mr difference, and how many such pairs would
pass as one code. Needs the duckdb Python package (pip install duckdb).

    python3 scripts/identify-limits.py [public/data]
"""
import duckdb, sys
d = sys.argv[1] if len(sys.argv) > 1 else 'public/data'
c = duckdb.connect()
c.sql(f"""create view k as select c.*, b.code_sha256 code, r.machine_id from
  (select * from '{d}/counts.parquet' union all by name select * from '{d}/counts_superseded.parquet') c
  join (select * from '{d}/count_runs.parquet' union all by name select * from '{d}/count_runs_superseded.parquet') r using (run_id)
  join '{d}/builds.parquet' b on b.build_id = c.build_id
  where c.status = 'ok' and r.protocol = 7 and coalesce(r.redone, '') not like 'repeats differed%'""")
ev = ['requests','ir','dr','dw','bc','bi','i1mr','d1mr','d1mw','ilmr','dlmr','dlmw','bcm','bim']
cols = ", ".join(f"max(abs(a.{e}-b.{e})) {e}" for e in ev)
print("current and superseded runs of protocol 7 (disturbed runs left out). repeats of one code hash (test pairs, across machines, max difference per event):")
print(c.sql(f"""select count(*) pairs, count(*) filter (where a.machine_id <> b.machine_id) across, {cols}
  from k a join k b on a.cell_id=b.cell_id and a.mode=b.mode and a.test=b.test and a.code=b.code and a.run_id<b.run_id
  where a.code is not null""").fetchall())
print("builds of one cell with different code hashes (build pairs x mode): least, over pairs, of the largest I1mr difference; pairs that would pass as one code")
print(c.sql(f"""with one as (select * from k where code is not null qualify row_number() over (partition by build_id, mode, test order by run_id)=1),
  p as (select a.cell_id, a.build_id ba, b.build_id bb, a.mode, max(abs(a.i1mr-b.i1mr)) i1, 
    bool_and(a.requests=b.requests and a.ir=b.ir and a.dr=b.dr and a.dw=b.dw and a.bc=b.bc and a.bi=b.bi
      and abs(a.i1mr-b.i1mr)<=8 and abs(a.d1mr-b.d1mr)<=8 and abs(a.d1mw-b.d1mw)<=8 and abs(a.ilmr-b.ilmr)<=8 and abs(a.dlmr-b.dlmr)<=8 and abs(a.dlmw-b.dlmw)<=8) same
    from one a join one b on a.cell_id=b.cell_id and a.mode=b.mode and a.test=b.test and a.code<>b.code and a.build_id<b.build_id
    group by all)
  select count(*) pairs, count(distinct cell_id) cells, min(i1) least_max_i1mr, count(*) filter (where same) would_pass from p""").fetchall())

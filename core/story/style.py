"""The archive page's stylesheet: one column that fits a phone, larger on a desktop, the
sides' colours as in the picture, light and dark."""

CSS = """
:root{--ink:#222;--muted:#6e6e6e;--paper:#fdfcf8;--card:#fff;--line:#dcd8cd;--out:#c82828;
--night:#e8ebf5}
@media (prefers-color-scheme:dark){:root{--ink:#eee;--muted:#aaa;--paper:#16171b;--card:#202228;
--line:#3a3d45;--night:#23283a}}
*{box-sizing:border-box}
body{margin:0;background:var(--paper);color:var(--ink);font:17px/1.5 system-ui,-apple-system,
"Segoe UI",Roboto,"DejaVu Sans",sans-serif}
main{max-width:46rem;margin:0 auto;padding:1rem}
h1{font-size:1.6rem;margin:.5rem 0}
h2{font-size:1.3rem;margin:0 0 .5rem}
h3{font-size:1.05rem;margin:1rem 0 .3rem}
section{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:1rem;
margin:1rem 0}
section.night{background:var(--night)}
table{width:100%;border-collapse:collapse}
td{padding:.4rem .3rem;border-top:1px solid var(--line);vertical-align:top}
td.name{font-weight:600;border-left:6px solid var(--side,#999);padding-left:.5rem}
small,.muted{color:var(--muted)}
.won{color:#b8860b;font-weight:400;white-space:nowrap}
.out,.left{color:var(--out)}
ul{padding-left:1.2rem;margin:.3rem 0}
ul.ballots{columns:2 14rem;font-size:.9rem;color:var(--muted)}
svg.votes{width:100%;height:auto;font:15px system-ui,"DejaVu Sans",sans-serif;fill:var(--ink)}
svg .arrow{stroke:#777;stroke-width:1.5}
svg .arrow.out{stroke:var(--out)}
svg .target{fill:var(--line)}
svg .target.out{fill:var(--out)}
svg .label{font-weight:600}
svg .label.out{fill:#fff}
"""

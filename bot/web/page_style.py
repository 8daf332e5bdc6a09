"""The live page's CSS (``bot.web.page``), its colours given as custom properties (``__COLOURS__``).

Two layouts by media query: the projector's (a wide screen, 1920x1080 seen from the back of a hall: the
board the full height, the draw and the clock large beside it) and the phone's (360 px wide: one column).
"""

from __future__ import annotations

STYLE = """:root{__COLOURS__}
*{box-sizing:border-box}
body{margin:0;background:var(--page);color:var(--ink);font-family:"DejaVu Sans",Verdana,sans-serif}
#app{display:grid;grid-template-columns:auto 1fr;gap:2vh;padding:2vh;height:100vh}
#board{display:grid;grid-template-columns:repeat(16,1fr);gap:2px;background:var(--frame);padding:6px;
  aspect-ratio:1/1;height:94vh;border-radius:6px}
.co{display:flex;align-items:center;justify-content:center;color:var(--page);font-weight:bold;font-size:2.2vh}
.sq{position:relative;display:flex;align-items:center;justify-content:center;background:var(--sq-plain);
  color:var(--sq-ink-plain);font-weight:bold;font-size:1.4vh;border-radius:2px}
.sq.tw{background:var(--sq-tw);color:var(--sq-ink-tw)}.sq.dw{background:var(--sq-dw);color:var(--sq-ink-dw)}
.sq.tl{background:var(--sq-tl);color:var(--sq-ink-tl)}.sq.dl{background:var(--sq-dl);color:var(--sq-ink-dl)}
.tile{background:var(--tile);color:var(--ink);border:2px solid var(--tile-edge);border-radius:4px;
  display:flex;align-items:center;justify-content:center;position:relative;font-weight:bold}
.sq .tile{position:absolute;inset:0;font-size:3.6vh}
.tile.joker{background:var(--joker);color:var(--joker-ink);border-color:var(--joker-edge)}
.tile.lit{background:var(--recent);border-color:var(--recent-edge)}
.tile.kept{background:var(--kept)}
.tile sub{position:absolute;right:6%;bottom:2%;font-size:45%;font-weight:normal}
#side{display:flex;flex-direction:column;gap:2vh;min-width:0;overflow:hidden}
h1{margin:0;font-size:4.4vh}
#status{font-size:3vh;color:var(--muted)}
#rack{display:flex;gap:1vh;flex-wrap:wrap;min-height:11vh}
#rack .tile{width:9vh;height:9vh;font-size:5.8vh}
#rack .gap{width:3vh}
#legend{font-size:2.2vh;color:var(--muted)}
#legend .tile{display:inline-flex;width:2.6vh;height:2.6vh;vertical-align:middle;margin:0 .6vh}
#clock{font-size:13vh;font-weight:bold;font-variant-numeric:tabular-nums;line-height:1}
#clock.low{color:var(--sq-tw)}
#call{font-size:7vh;font-weight:bold;color:var(--turn-ink);background:var(--sq-tw);border-radius:8px;
  padding:.5vh 2vh;align-self:flex-start}
#call:empty{display:none}
#clocks{display:flex;flex-direction:column;gap:1vh}
#clocks .chip{font-size:4.4vh;font-variant-numeric:tabular-nums;margin:0}
#app.classic #side>div:empty{display:none}#app.classic #rack{min-height:0}
#clocks .chip.over{color:var(--sq-tw)}
#clocks .chip.turn.over{color:var(--turn-ink);background:var(--sq-tw)}
#overall:empty{display:none}
#app.solo{grid-template-columns:1fr;max-width:1500px;margin:0 auto}#app.solo #board{display:none}
#app.solo #side>div:empty,#app.solo #tables{display:none}#app.solo #overall{font-size:3.4vh}
#app.solo #overall table{font-size:3.6vh}
#count{font-size:4vh}
#top{font-size:4vh;font-weight:bold}
table{border-collapse:collapse;font-size:2.8vh;width:100%}
td,th{padding:.4vh 1vh;text-align:left}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
tr:nth-child(even){background:var(--stripe)}
tr.best{background:var(--row-top)}
tr.zero td.n{color:var(--zero-ink)}
h2{margin:.5vh 0;font-size:3vh}
#tables{display:grid;grid-template-columns:1fr 1fr;gap:2vh;overflow:hidden}
.chip{display:inline-block;padding:.5vh 1.5vh;margin:.5vh;background:var(--chip);border-radius:6px;font-size:3.4vh}
.chip.turn{background:var(--turn);color:var(--turn-ink)}
#notice{font-size:3vh;color:var(--zero-ink)}
@media (max-width:700px){
  #app{display:block;height:auto;padding:8px}
  #board{width:100%;height:auto;padding:3px;gap:1px}
  .sq,.co{font-size:2.2vw}.sq .tile{font-size:5vw;border-width:1px}.sq .tile sub{display:none}
  #side{gap:10px;margin-top:10px}
  h1{font-size:22px}#status{font-size:16px}
  #rack{min-height:0;gap:5px}#rack .tile{width:11vw;height:11vw;font-size:7vw}#rack .gap{width:3vw}
  #legend{font-size:13px}#legend .tile{width:14px;height:14px}
  #clock{font-size:48px}#count,#top{font-size:18px}#call{font-size:26px}#clocks .chip{font-size:20px}
  table{font-size:15px}h2{font-size:17px}
  #tables{display:block}.chip{font-size:16px}#notice{font-size:16px}
  #app.solo #overall{font-size:16px}#app.solo #overall table{font-size:15px}#overall td,#overall th{padding:4px}
}
"""

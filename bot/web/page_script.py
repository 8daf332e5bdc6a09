"""The live page's script (``bot.web.page``), its configuration given as ``__CONFIG__`` (the words, the
premiums, the events' address, the language).

It draws each state the server pushes (a state older than the page's, by its version ``[game, count]``, is
dropped), and runs the countdowns from the server's time. A game over (``finished``) shows "Game over", the
board and the final standings, no draw, no clock; a round of a simultané whose time is up in the room and
whose close waits for the other rooms (``held``) says so instead of a clock. Tables are ``.pager``s: on the
projector each shows the rows that fit its box, and the next ones every ``PAGE_SECONDS`` (``nextPage``; the
link's ``?turn=N`` makes it N seconds, 2 at least);
on a phone every row, the page scrolls. A positive gap reads "+10".
"""

from __future__ import annotations

SCRIPT = r""""use strict";
const CONFIG = __CONFIG__;
const L = CONFIG.labels;
const plural = new Intl.PluralRules(CONFIG.lang);
// a table longer than its box on the projector shows its next rows this often (the link's ?turn=N: N seconds)
const PAGE_SECONDS = Math.max(2, Number(new URLSearchParams(location.search).get("turn")) || 10);
let state = null, version = [-1, -1], skew = 0, turns = 0;
const q = id => document.getElementById(id);
function fill(text, values){return text.replace(/\{(\w+)\}/g,(m,k)=>k in values?String(values[k]):m);}
function el(tag, cls, text){const e=document.createElement(tag);if(cls)e.className=cls;
  if(text!==undefined)e.textContent=text;return e;}
function tile(t, cls){const e=el("div","tile"+(cls?" "+cls:""),t[0]);if(t[1])e.appendChild(el("sub","",t[1]));return e;}
function gapText(gap){return gap>0?"+"+gap:String(gap);}
function older(a, b){return a[0]<b[0]||(a[0]===b[0]&&a[1]<b[1]);}
function drawBoard(cells, lit, coords){
  const board=q("board");board.textContent="";
  board.appendChild(el("div","co",""));
  for(let c=0;c<15;c++)board.appendChild(el("div","co",coords?coords.cols[c]:""));
  const at={};for(const c of cells)at[c[0]*15+c[1]]=c;
  const litSet=new Set((lit||[]).map(x=>x[0]*15+x[1]));
  for(let r=0;r<15;r++){const codes=CONFIG.premiums[r].split(" ");
    board.appendChild(el("div","co",coords?coords.rows[r]:""));
    for(let c=0;c<15;c++){const code=codes[c]==="."?"":codes[c];
      const sq=el("div","sq"+(code?" "+code:""));
      const cell=at[r*15+c];
      if(cell){sq.appendChild(tile([cell[2],cell[3]],(cell[4]?"joker ":"")+(litSet.has(r*15+c)?"lit":"")));}
      else if(r===7&&c===7){sq.textContent=L.star;}
      else if(code){sq.textContent=L["premium_"+code];}
      board.appendChild(sq);}}
}
// A table in a box of its own: its title (and which page shows; null: none), its columns ({text, n: numbers,
// short: names as wide as they are up to a limit}, the other columns sharing the rest, their text cut short on
// the projector if it must), its head if asked, its rows; a cell is a value, or {text, mark}: a name and a mark
// under it.
function table(title, cols, rows, head){
  const box=el("div","tbl");
  if(title!==null){const h=el("h2","",title);h.appendChild(el("span","pages"));box.appendChild(h);}
  const pager=el("div","pager");const t=el("table");
  if(head){const thead=el("thead"),tr=el("tr");
    cols.forEach(c=>tr.appendChild(el("th",c.n?"n":(c.short?"c":"t"),c.text)));thead.appendChild(tr);t.appendChild(thead);}
  const body=el("tbody");
  for(const row of rows){const tr=el("tr",row.cls||"");
    row.cells.forEach((v,i)=>{const td=el("td",cols[i].n?"n":(cols[i].short?"c":"t"));
      if(v!==null&&typeof v==="object"){td.appendChild(el("span","name",v.text));
        if(v.mark)td.appendChild(el("span","mark",v.mark));}
      else td.textContent=String(v);
      tr.appendChild(td);});
    body.appendChild(tr);}
  t.appendChild(body);pager.appendChild(t);box.appendChild(pager);return box;
}
// The pages of rows of these heights in a box of this height: as few as fit, as even as they can be.
function pagesOf(heights, room){
  const cut=limit=>{const pages=[];let start=0,used=0;
    heights.forEach((h,i)=>{if(i>start&&used+h>limit){pages.push([start,i]);start=i;used=0;}used+=h;});
    pages.push([start,heights.length]);return pages;};
  const fitting=cut(room);
  if(fitting.length<2)return fitting;
  let low=heights.reduce((a,b)=>a+b,0)/fitting.length,high=room;
  for(let n=0;n<20;n++){const mid=(low+high)/2;if(cut(mid).length>fitting.length)low=mid;else high=mid;}
  return cut(high);
}
// Each table shows the rows that fit its box, a page at a time, spread over the box (every row on a phone).
function layoutPagers(){
  const phone=window.matchMedia("(max-width:700px)").matches;
  for(const box of document.querySelectorAll(".pager")){
    const rows=[...box.querySelectorAll("tbody tr")];
    for(const r of rows){r.hidden=false;r.style.height="";}
    let pages=[[0,rows.length]],room=0,heights=[];
    if(!phone&&rows.length){
      const head=box.querySelector("thead");
      room=box.clientHeight-(head?head.offsetHeight:0);
      heights=rows.map(r=>r.offsetHeight);
      pages=pagesOf(heights,room);
    }
    const page=turns%pages.length,[first,end]=pages[page];
    rows.forEach((r,i)=>{r.hidden=i<first||i>=end;});
    if(pages.length>1){const used=heights.slice(first,end).reduce((a,b)=>a+b,0);
      const extra=Math.min((room-used)/(end-first),used/(end-first)/2);
      for(let i=first;i<end&&extra>0;i++)rows[i].style.height=heights[i]+extra+"px";}
    const mark=(box.closest("#overall")||box.parentNode).querySelector(".pages");
    if(mark)mark.textContent=pages.length>1?fill(L.page,{page:page+1,pages:pages.length}):"";
  }
}
function nextPage(){turns++;layoutPagers();}
function serverNow(){return Date.now()/1000+skew;}
function mmss(seconds){const whole=Math.max(0,Math.ceil(seconds-1e-9));
  return Math.floor(whole/60)+":"+String(whole%60).padStart(2,"0");}
function openRound(){
  if(!state||state.kind!=="duplicate"||!state.round||!state.round.draw)return null;
  return state.round;
}
function roundLeft(){
  const r=openRound();
  if(!r||r.held)return null;
  if(r.paused_left!==null&&r.paused_left!==undefined)return null;
  if(r.deadline===null||r.deadline===undefined)return null;
  return Math.max(0,Math.ceil(r.deadline-serverNow()));
}
function clockText(){
  const r=openRound();
  if(!r)return "";
  if(r.held)return L.held;
  if(r.paused_left!==null&&r.paused_left!==undefined)return L.paused;
  if(r.deadline===null||r.deadline===undefined)return L.no_clock;
  const left=roundLeft();
  if(left<=0)return L.time_up;
  return mmss(left);
}
function callText(){
  const left=roundLeft();const r=openRound();
  if(left===null||!r.call||left<=0||left>r.call)return "";
  return fill(L.call,{seconds:Math.round(r.call)});
}
function playerClock(c, p){
  if(p.flagged)return p.player+" "+L.flagged;
  let left=p.left;
  if(c.running===p.player&&!c.paused&&!state.finished)left-=serverNow()-state.now;
  if(left>=0)return p.player+" "+mmss(left);
  let points=p.points;
  if(c.overtime_per_minute){let minutes=Math.ceil(-left/60-1e-6);
    if(c.overtime_limit)minutes=Math.min(minutes,c.overtime_limit);points=minutes*c.overtime_per_minute;}
  return p.player+" "+fill(L.overtime,{time:mmss(-left),points:points});
}
function tickClocks(){
  const box=q("clocks");
  if(!state||state.kind!=="classic"||!state.clocks){if(box.textContent)box.textContent="";return;}
  const c=state.clocks;const rows=[];
  if(c.mode==="stopwatch"){let left=c.move_left;
    if(c.running&&!c.paused&&!state.finished)left-=serverNow()-state.now;
    const who=c.running||state.to_move||"-";
    rows.push({text:who+" · "+fill(L.stopwatch,{time:mmss(left)})+(c.paused?" · "+L.clock_paused:""),
      cls:"turn"+(left<=0?" over":"")});}
  else{for(const p of c.players){const text=playerClock(c,p);
    rows.push({text:text+(c.paused&&p.player===state.to_move?" · "+L.clock_paused:""),
      cls:(p.player===c.running?"turn":"")+(text.includes("+")||p.flagged?" over":"")});}}
  if(box.children.length!==rows.length){box.textContent="";for(const _ of rows)box.appendChild(el("div","chip"));}
  rows.forEach((row,i)=>{const e=box.children[i];if(e.textContent!==row.text)e.textContent=row.text;
    const cls="chip "+row.cls;if(e.className!==cls.trim())e.className=cls.trim();});
}
function tick(){const c=q("clock");const t=clockText();
  if(c.textContent!==t)c.textContent=t;
  const call=q("call");const ct=callText();if(call.textContent!==ct)call.textContent=ct;
  const left=roundLeft();const r=openRound();
  c.classList.toggle("low",left!==null&&left<=((r&&r.call)||30));
  c.classList.toggle("words",t!==""&&!/^[0-9]/.test(t)&&t!==L.time_up);
  tickClocks();}
function overallTable(o){
  const box=q("overall");box.textContent="";box.classList.remove("ranked");
  if(!o)return;
  const room=state.kind!=="simultane";  // a room's page: the simultané's code over its ranking
  if(!o.rounds){if(room)box.appendChild(el("h2","",fill(L.simultane_title,{code:o.code})));
    box.appendChild(el("div","",o.window?L.simultane_hidden_window:L.simultane_hidden_together));return;}
  box.classList.add("ranked");
  const counted=(k,n)=>fill(plural.select(n)==="one"?L[k+"_one"]:L[k+"_other"],{[k]:n});
  const title=fill(L.simultane_ranking,{rounds:counted("rounds",o.rounds),
    rooms:counted("rooms",o.rooms),players:counted("players",o.standings.length)});
  const head=el("h2","",room?fill(L.simultane_title,{code:o.code}):title);head.appendChild(el("span","pages"));
  box.appendChild(head);
  if(room)box.appendChild(el("div","summary",title));
  const pc=new Intl.NumberFormat(CONFIG.lang,{minimumFractionDigits:1,maximumFractionDigits:1});
  const cols=[{text:"#",n:1},{text:L.col_player},{text:L.room},{text:L.col_total,n:1},{text:L.col_gap,n:1},
    {text:"%",n:1},{text:L.col_solos,n:1}];
  const stopped=x=>x.stopped===null||x.stopped===undefined?"":fill(L.stopped,{n:x.stopped});
  box.appendChild(table(null,cols,o.standings.map((x,i)=>({cls:i===0?"best":"",
    cells:[x.place,{text:x.player},{text:x.room,mark:stopped(x)},x.total,gapText(x.gap),pc.format(x.percent),
      x.solos]})),true));
}
function render(){
  const s=state;const app=q("app");
  q("notice").textContent="";
  if(s.kind==="none"){q("heading").textContent=L.gone;return;}
  app.classList.toggle("simul",s.kind!=="simultane"&&!!s.overall);
  overallTable(s.overall||null);
  if(s.kind==="simultane"){q("heading").textContent=fill(L.simultane_title,{code:s.overall.code});
    app.classList.add("solo");layoutPagers();return;}
  drawBoard(s.board, s.kind==="duplicate"?(s.last?s.last.top_cells:[]):s.top_cells, s.coords);
  q("status").textContent="";
  const rack=q("rack");rack.textContent="";q("legend").textContent="";q("count").textContent="";q("top").textContent="";
  q("results").textContent="";q("standings").textContent="";
  app.classList.toggle("classic",s.kind==="classic");
  app.classList.toggle("over",!!s.finished);
  if(s.kind==="classic"){
    q("heading").textContent=s.finished?L.finished:(s.to_move?fill(L.to_move,{player:s.to_move}):L.title);
    const box=document.createElement("div");
    for(const p of s.scores){
      box.appendChild(el("span","chip"+(p.player===s.to_move?" turn":""),p.player+" "+p.total));}
    rack.appendChild(box);
    if(s.last_move)q("top").textContent=s.last_move.player+" : "+s.last_move.move+" ("+s.last_move.points+")";
    q("count").textContent=fill(L.bag,{n:s.bag});
    tickClocks();
    return;
  }
  const r=s.round;
  if(s.finished){q("heading").textContent=L.finished;q("status").textContent=fill(L.tops_total,{total:s.tops_total});}
  else q("heading").textContent=fill(L.move,{n:r?r.number:(s.last?s.last.number:1)});
  if(r&&r.draw){
    for(const t of r.draw.kept)rack.appendChild(tile(t,"kept"));
    if(r.draw.kept.length)rack.appendChild(el("span","gap"));
    for(const t of r.draw.new)rack.appendChild(tile(t,"new"));
    if(r.draw.kept.length){const lg=q("legend");lg.appendChild(tile(["",0],"kept"));lg.append(L.kept);
      lg.appendChild(tile(["",0],""));lg.append(L.new);}
    const form=plural.select(r.played)==="one"?L.played_one:L.played_other;
    q("count").textContent=fill(form,{played:r.played,players:r.players});
  } else if(r){q("count").textContent=L.waiting_draw;}
  if(s.last){
    const last=s.last;
    q("top").textContent=last.top?fill(L.top,{n:last.number,top:last.top,points:last.top_points}):fill(L.no_top,{n:last.number});
    q("results").appendChild(table(fill(L.results,{n:last.number}),[{short:1},{},{n:1}],last.results.map(x=>({
      cls:x.score===last.top_points&&x.score>0?"best":(x.score===0?"zero":""),
      cells:[{text:x.player},{text:x.move},x.score]})),false));
  }
  if(s.standings.length){
    q("standings").appendChild(table(L.standings,[{n:1},{},{n:1},{n:1}],s.standings.map((x,i)=>({
      cls:i===0?"best":"",cells:[x.place,{text:x.player},x.total,gapText(x.gap)]})),false));
  }
  layoutPagers();
}
function connect(){
  const source=new EventSource(CONFIG.events);
  source.addEventListener("state",e=>{const data=JSON.parse(e.data);
    if(older(data.version,version))return;version=data.version;state=data.state;skew=state.now-Date.now()/1000;
    render();tick();});
  source.addEventListener("revoked",()=>{source.close();q("notice").textContent=L.revoked;
    state=null;q("clock").textContent="";});
  source.onerror=()=>{if(source.readyState===EventSource.CLOSED){setTimeout(connect,2000);}
    if(state)q("notice").textContent=L.reconnecting;};
  source.onopen=()=>{q("notice").textContent="";};
}
drawBoard([],[]);connect();setInterval(tick,250);
const pageTimer=setInterval(nextPage,PAGE_SECONDS*1000);
window.addEventListener("resize",layoutPagers);
"""

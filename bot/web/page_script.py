"""The live page's script (``bot.web.page``), its configuration given as ``__CONFIG__`` (the words, the
premiums, the events' address, the language): it draws what the server pushes and runs the countdown from
the deadline it was sent (corrected by the gap between the server's clock and the page's).
"""

from __future__ import annotations

SCRIPT = r""""use strict";
const CONFIG = __CONFIG__;
const L = CONFIG.labels;
const plural = new Intl.PluralRules(CONFIG.lang);
let state = null, version = -1, skew = 0;
function fill(text, values){return text.replace(/\{(\w+)\}/g,(m,k)=>k in values?String(values[k]):m);}
function el(tag, cls, text){const e=document.createElement(tag);if(cls)e.className=cls;
  if(text!==undefined)e.textContent=text;return e;}
function tile(t, cls){const e=el("div","tile"+(cls?" "+cls:""),t[0]);if(t[1])e.appendChild(el("sub","",t[1]));return e;}
function drawBoard(cells, lit, coords){
  const board=document.getElementById("board");board.textContent="";
  board.appendChild(el("div","co",""));
  for(let c=0;c<15;c++)board.appendChild(el("div","co",coords?coords.cols[c]:""));
  const at={};for(const c of cells)at[c[0]*15+c[1]]=c;
  const litSet=new Set((lit||[]).map(x=>x[0]*15+x[1]));
  for(let r=0;r<15;r++){const codes=CONFIG.premiums[r].split(" ");
    board.appendChild(el("div","co",coords?coords.rows[r]:""));
    for(let c=0;c<15;c++){const code=codes[c]===".."?"":(codes[c]==="."?"":codes[c]);
      const sq=el("div","sq"+(code?" "+code:""));
      const cell=at[r*15+c];
      if(cell){sq.appendChild(tile([cell[2],cell[3]],(cell[4]?"joker ":"")+(litSet.has(r*15+c)?"lit":"")));}
      else if(r===7&&c===7){sq.textContent=L.star;}
      else if(code){sq.textContent=L["premium_"+code];}
      board.appendChild(sq);}}
}
function table(title, head, rows){
  const box=document.createElement("div");box.appendChild(el("h2","",title));
  const t=el("table");
  if(head.length){const tr=el("tr");head.forEach(h=>tr.appendChild(el("th",h.n?"n":"",h.text)));t.appendChild(tr);}
  const numeric=(v,i)=>head.length?head[i].n:i>0&&typeof v==="number";
  for(const row of rows){const tr=el("tr",row.cls||"");
    row.cells.forEach((v,i)=>tr.appendChild(el("td",numeric(v,i)?"n":"",String(v))));t.appendChild(tr);}
  box.appendChild(t);return box;
}
function serverNow(){return Date.now()/1000+skew;}
function mmss(seconds){const whole=Math.max(0,Math.ceil(seconds-1e-9));
  return Math.floor(whole/60)+":"+String(whole%60).padStart(2,"0");}
function roundLeft(){
  if(!state||state.kind!=="duplicate"||!state.round||!state.round.draw)return null;
  const r=state.round;
  if(r.paused_left!==null&&r.paused_left!==undefined)return null;
  if(r.deadline===null||r.deadline===undefined)return null;
  return Math.max(0,Math.ceil(r.deadline-serverNow()));
}
function clockText(){
  if(!state||state.kind!=="duplicate"||!state.round||!state.round.draw)return "";
  const r=state.round;
  if(r.paused_left!==null&&r.paused_left!==undefined)return L.paused;
  if(r.deadline===null||r.deadline===undefined)return L.no_clock;
  const left=roundLeft();
  if(left<=0)return L.time_up;
  return mmss(left);
}
function callText(){
  const left=roundLeft();const r=state&&state.round;
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
  const box=document.getElementById("clocks");
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
function tick(){const c=document.getElementById("clock");const t=clockText();
  if(c.textContent!==t)c.textContent=t;
  const call=document.getElementById("call");const ct=callText();if(call.textContent!==ct)call.textContent=ct;
  const left=roundLeft();const r=state&&state.round;
  c.classList.toggle("low",left!==null&&left<=((r&&r.call)||30));
  tickClocks();}
function overallTable(o){
  const box=document.getElementById("overall");box.textContent="";
  if(!o)return;
  if(state.kind!=="simultane")box.appendChild(el("h2","",fill(L.simultane_title,{code:o.code})));
  if(!o.rounds){box.appendChild(el("div","",o.window?L.simultane_hidden_window:L.simultane_hidden_together));return;}
  const counted=(k,n)=>fill(plural.select(n)==="one"?L[k+"_one"]:L[k+"_other"],{[k]:n});
  box.appendChild(el("div","",fill(L.simultane_ranking,{rounds:counted("rounds",o.rounds),
    rooms:counted("rooms",o.rooms),players:counted("players",o.standings.length)})));
  const pc=new Intl.NumberFormat(CONFIG.lang,{minimumFractionDigits:1,maximumFractionDigits:1});
  const head=[{text:"#"},{text:L.col_player},{text:L.room},{text:L.col_total,n:1},{text:L.col_gap,n:1},{text:"%",n:1}];
  box.appendChild(table("",head,o.standings.map((x,i)=>({cls:i===0?"best":"",
    cells:[x.place,x.player,x.room,x.total,x.gap>0?"+"+x.gap:String(x.gap),pc.format(x.percent)]}))).lastChild);
}
function render(){
  const s=state;const q=id=>document.getElementById(id);
  q("notice").textContent="";
  if(s.kind==="none"){q("heading").textContent=L.gone;return;}
  overallTable(s.overall||null);
  if(s.kind==="simultane"){q("heading").textContent=fill(L.simultane_title,{code:s.overall.code});
    document.getElementById("app").classList.add("solo");return;}
  drawBoard(s.board, s.kind==="duplicate"?(s.last?s.last.top_cells:[]):s.top_cells, s.coords);
  q("status").textContent=s.finished?L.finished:"";
  const rack=q("rack");rack.textContent="";q("legend").textContent="";q("count").textContent="";q("top").textContent="";
  q("results").textContent="";q("standings").textContent="";
  document.getElementById("app").classList.toggle("classic",s.kind==="classic");
  if(s.kind==="classic"){
    q("heading").textContent=s.to_move?fill(L.to_move,{player:s.to_move}):L.title;
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
  const n=r?r.number:(s.last?s.last.number:1);
  q("heading").textContent=fill(L.move,{n:n});
  if(r&&r.draw){
    for(const t of r.draw.kept)rack.appendChild(tile(t,"kept"));
    if(r.draw.kept.length)rack.appendChild(el("span","gap"));
    for(const t of r.draw.new)rack.appendChild(tile(t,"new"));
    if(r.draw.kept.length){const lg=q("legend");lg.appendChild(tile(["",0],"kept"));lg.append(L.kept);
      lg.appendChild(tile(["",0],""));lg.append(L.new);}
    const form=plural.select(r.played)==="one"?L.played_one:L.played_other;
    q("count").textContent=fill(form,{played:r.played,players:r.players});
  } else if(r&&!s.finished){q("count").textContent=L.waiting_draw;}
  if(s.last){
    const last=s.last;
    q("top").textContent=last.top?fill(L.top,{n:last.number,top:last.top,points:last.top_points}):fill(L.no_top,{n:last.number});
    q("results").appendChild(table(fill(L.results,{n:last.number}),[],last.results.map(x=>({
      cls:x.score===last.top_points&&x.score>0?"best":(x.score===0?"zero":""),cells:[x.player,x.move,x.score]}))));
  }
  if(s.standings.length){
    q("standings").appendChild(table(L.standings,[],s.standings.map((x,i)=>({cls:i===0?"best":"",
      cells:[x.place,x.player,x.total,x.gap?String(x.gap):"0"]}))));
  }
}
function connect(){
  const source=new EventSource(CONFIG.events);
  source.addEventListener("state",e=>{const data=JSON.parse(e.data);
    if(data.version<version)return;version=data.version;state=data.state;skew=state.now-Date.now()/1000;
    render();tick();});
  source.addEventListener("revoked",()=>{source.close();document.getElementById("notice").textContent=L.revoked;
    state=null;document.getElementById("clock").textContent="";});
  source.onerror=()=>{if(source.readyState===EventSource.CLOSED){setTimeout(connect,2000);}
    if(state)document.getElementById("notice").textContent=L.reconnecting;};
  source.onopen=()=>{document.getElementById("notice").textContent="";};
}
drawBoard([],[]);connect();setInterval(tick,250);
"""

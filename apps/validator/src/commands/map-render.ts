/**
 * Draws a {@link StoryMap} with Graphviz (`@viz-js/viz`, Graphviz compiled to WebAssembly, no
 * network): one cluster per part, so a story of hundreds of nodes stays readable. Every node and
 * edge carries its map id in the SVG (`id="…"`), which is what the tests check, not pixels.
 */
import type { MapEdge, MapNode, StoryMap } from './map-graph'

const q = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`

const NODE_STYLE: Record<MapNode['kind'], string> = {
  part: 'shape=folder, style="filled,bold", fillcolor="#dbe8ff"',
  scene: 'shape=box, style="rounded,filled", fillcolor="#ffffff"',
  group: 'shape=diamond, style=filled, fillcolor="#fff4c2"',
  end: 'shape=doubleoctagon, style="filled,bold", fillcolor="#333333", fontcolor="#ffffff"',
  missing: 'shape=box, style="dashed,filled", fillcolor="#ffe0e0", color="#cc0000"',
}

const EDGE_STYLE: Record<MapEdge['kind'], string> = {
  flow: 'color="#555555"',
  option: 'color="#1f5fbf", fontcolor="#1f5fbf"',
  jump: 'style=dashed, color="#555555"',
  gate: 'style=bold, color="#7a2fb0"',
  link: 'style=dotted, color="#1f8f5f", fontcolor="#1f8f5f"',
  tunnel: 'style="dashed,bold", color="#c05f00", arrowhead=odiamond',
  thread: 'style="dotted,bold", color="#0a7ea4", arrowhead=inv',
}

/** What each edge kind means, for the legend. */
const EDGE_MEANING: Record<MapEdge['kind'], string> = {
  flow: 'flow',
  option: 'option',
  jump: 'jump',
  gate: 'gate',
  link: 'link',
  tunnel: 'tunnel call (returns)',
  thread: 'thread (gathers options)',
}

/** Above this many nodes a map is drawn without edge labels (they become tooltips). */
export const LARGE = 80

/** Green, deeper the more walks reached it. */
function reachColour(ratio: number): string {
  const h = Math.round(235 - 125 * ratio)
    .toString(16)
    .padStart(2, '0')
  return `#${h}f0${h}`
}

/** The map's id of a node or edge, as the SVG `id` attribute holds it. */
export function edgeId(e: MapEdge): string {
  return `edge:${e.kind}:${e.from}->${e.to}${e.choice ? `#${e.choice.option}` : ''}`
}

/** The Graphviz DOT text of a map. */
export function toDot(map: StoryMap): string {
  const walks = map.walks
  // A large map: no edge labels (counts stay on nodes) and a bounded crossing search, or Graphviz
  // takes a minute at 200 nodes.
  const large = map.nodes.length > LARGE
  const lines = [
    'digraph story {',
    `  graph [rankdir=TB, compound=true, fontname="Helvetica", nodesep=0.3, ranksep=0.4${large ? ', mclimit=0.1, nslimit=2, nslimit1=2, searchsize=10, splines=line' : ''}];`,
    '  node [fontname="Helvetica", fontsize=11];',
    '  edge [fontname="Helvetica", fontsize=9];',
  ]
  const names = new Map<string, string>()
  for (const [i, n] of map.nodes.entries()) names.set(n.id, `n${i}`)
  const byPart = new Map<string, MapNode[]>()
  for (const n of map.nodes) byPart.set(n.part, [...(byPart.get(n.part) ?? []), n])
  let c = 0
  for (const [part, nodes] of byPart) {
    lines.push(`  subgraph cluster_${c++} {`, `    label=${q(part)}; style="rounded"; color="#9aa7bd";`)
    for (const n of nodes) {
      let attrs = NODE_STYLE[n.kind]
      let label = n.label
      if (walks !== undefined && n.kind !== 'missing') {
        const r = n.reached ?? 0
        label += `\n${r}/${walks} walks`
        if (r === 0) attrs += ', fillcolor="#ff9c9c", color="#cc0000", penwidth=2.5'
        else if (n.kind !== 'end') attrs += `, fillcolor="${reachColour(r / walks)}"`
      }
      lines.push(`    ${names.get(n.id)} [id=${q(`node:${n.id}`)}, label=${q(label)}, ${attrs}];`)
    }
    lines.push('  }')
  }
  for (const e of map.edges) {
    let attrs = EDGE_STYLE[e.kind]
    let label = e.label ?? ''
    if (walks !== undefined) {
      const r = e.reached ?? 0
      label = label ? `${label} (${r})` : String(r)
      if (r === 0) attrs += ', color="#cc0000", penwidth=2, style=dashed'
      else attrs += `, penwidth=${(1 + (3 * r) / walks).toFixed(2)}`
    }
    if (large && label) attrs += `, tooltip=${q(label)}`
    lines.push(
      `  ${names.get(e.from)} -> ${names.get(e.to)} [id=${q(edgeId(e))}, ${attrs}${label && !large ? `, label=${q(label)}` : ''}];`,
    )
  }
  // A legend of the edge kinds, drawn when the map has 1.1 edges (tunnels, threads), which are new
  // to a reader of 1.0 maps.
  const kinds = [...new Set(map.edges.map((e) => e.kind))]
  if (kinds.includes('tunnel') || kinds.includes('thread')) {
    lines.push('  subgraph cluster_legend {', '    label="Legend"; style="rounded"; color="#9aa7bd";')
    for (const [i, k] of kinds.entries())
      lines.push(
        `    legend${i}a [label="", shape=point, width=0.05]; legend${i}b [label=${q(EDGE_MEANING[k])}, shape=plaintext];`,
        `    legend${i}a -> legend${i}b [id=${q(`legend:${k}`)}, ${EDGE_STYLE[k]}];`,
      )
    lines.push('  }')
  }
  lines.push('}')
  return `${lines.join('\n')}\n`
}

/** Renders the map as SVG with Graphviz (`dot` layout). */
export async function renderSvg(map: StoryMap): Promise<string> {
  const { instance } = await import('@viz-js/viz')
  const viz = await instance()
  return viz.renderString(toDot(map), { format: 'svg', engine: 'dot' })
}

/** A self-contained HTML page: the SVG with wheel zoom and drag to pan, no network. */
export function toHtml(svg: string, title: string): string {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;')
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>
<style>html,body{margin:0;height:100%;overflow:hidden;font:13px Helvetica,sans-serif}
#v{width:100%;height:100%;cursor:grab}#v svg{transform-origin:0 0}
#h{position:fixed;top:6px;left:8px;background:#fffd;padding:4px 8px;border-radius:4px}</style></head>
<body><div id="h">${esc(title)}: wheel to zoom, drag to pan, 0 to reset</div><div id="v">${svg.replace(/^<\?xml[^>]*>\s*(<!DOCTYPE[^>]*>\s*)?/, '')}</div>
<script>
const v=document.getElementById('v'),s=v.querySelector('svg');let k=1,x=0,y=0,d=null;
const put=()=>{s.style.transform='translate('+x+'px,'+y+'px) scale('+k+')'};
v.addEventListener('wheel',e=>{e.preventDefault();const f=Math.exp(-e.deltaY/500);x=e.clientX-(e.clientX-x)*f;y=e.clientY-(e.clientY-y)*f;k*=f;put()},{passive:false});
v.addEventListener('pointerdown',e=>{d=[e.clientX-x,e.clientY-y];v.setPointerCapture(e.pointerId)});
v.addEventListener('pointermove',e=>{if(d){x=e.clientX-d[0];y=e.clientY-d[1];put()}});
v.addEventListener('pointerup',()=>{d=null});
addEventListener('keydown',e=>{if(e.key==='0'){k=1;x=0;y=0;put()}});
</script></body></html>
`
}

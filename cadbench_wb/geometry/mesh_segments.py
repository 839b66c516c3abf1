# SPDX-License-Identifier: LGPL-2.1-or-later
"""A closed triangle mesh cut into regions that each lie on one analytic surface, and the
regions' boundaries as chains of mesh vertices (the edges of the B-rep rebuilt from them).

A CAD tessellation puts its vertices on the model's surfaces and meshes each face on its
own, so: triangles of one planar face are coplanar (joined first, into planar groups);
a curved face's facets meet at small angles and all their vertices lie on one cylinder,
cone, sphere or torus. Curved regions grow from a seed of small groups whose fit holds,
group by group, as long as every vertex stays within the fit tolerance; what no curved
region takes is a plane. Pure numpy/scipy (mesh_surfaces' fits).
"""

import dataclasses
import math

import numpy as np
from scipy import sparse
from scipy.sparse import csgraph

from cadbench_wb.geometry import surface_fitting


class SegmentationFailed(Exception):
    """The mesh does not split into analytic regions; the message says where and why."""


@dataclasses.dataclass
class Region:
    triangles: np.ndarray  # indices into the mesh's triangles
    surface: surface_fitting.Surface


@dataclasses.dataclass
class _Groups:
    """The mesh cut into planar groups, and what region growth reads of them: fixed once
    made, except label (the region each group went to, -1 while free)."""

    vertices: np.ndarray
    triangles: np.ndarray
    normals: np.ndarray  # per triangle
    members: list  # per group: its triangles
    vertices_of: list  # per group: its distinct mesh vertices
    area: np.ndarray  # per group
    neighbours: list  # per group: {group across a small bend: True}
    label: np.ndarray


# A group farther than the fit tolerance, but within this many times it, waits for the
# region's refit instead of being left out (a seed's fit extrapolates).
_WAITING_FAR = 1e3


@dataclasses.dataclass
class Chain:
    """Where two regions meet: mesh vertices in order (closed: first != last, wraps)."""

    regions: tuple  # (left region, right region): left is the region whose loop ran it
    vertices: list
    closed: bool


def triangle_normals(vertices: np.ndarray, triangles: np.ndarray):
    """(unit normals, areas) of the triangles."""
    corners = vertices[triangles]
    cross = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
    length = np.linalg.norm(cross, axis=1)
    return cross / np.maximum(length, surface_fitting.TINY)[:, None], length / 2


def edge_pairs(triangles: np.ndarray):
    """(pairs of triangles sharing an edge, the shared vertex pairs) of a closed manifold
    mesh; raises SegmentationFailed on an edge that does not join exactly two."""
    count = len(triangles)
    a = triangles.reshape(-1)
    b = np.roll(triangles, -1, axis=1).reshape(-1)
    low, high = np.minimum(a, b), np.maximum(a, b)
    keys = low.astype(np.int64) * (int(triangles.max()) + 1) + high
    order = np.argsort(keys, kind="stable")
    sorted_keys = keys[order]
    if len(sorted_keys) % 2 or np.any(sorted_keys[0::2] != sorted_keys[1::2]):
        raise SegmentationFailed("the mesh has edges that do not join exactly two triangles")
    owners = np.repeat(np.arange(count), 3)[order].reshape(-1, 2)
    ends = np.column_stack([low[order], high[order]])[0::2]
    return owners, ends


def _components(count: int, pairs: np.ndarray) -> np.ndarray:
    graph = sparse.coo_matrix(
        (np.ones(len(pairs)), (pairs[:, 0], pairs[:, 1])), shape=(count, count)
    )
    return csgraph.connected_components(graph, directed=False)[1]


def regions_of(vertices, triangles, tolerance: float, settings: dict) -> list[Region]:
    """The mesh's regions, each on one fitted surface within tolerance (mm).

    settings: standard.MESH_FEATURES (flat_deg: facets closer than this are one plane;
    seed_deg: the widest angle between facets of one curved face).
    """
    normals, areas = triangle_normals(vertices, triangles)
    owners, _ = edge_pairs(triangles)
    cosines = np.einsum("ij,ij->i", normals[owners[:, 0]], normals[owners[:, 1]])
    flat = cosines >= math.cos(math.radians(settings["flat_deg"]))
    groups = _components(len(triangles), owners[flat])
    group_count = int(groups.max()) + 1
    members = [[] for _ in range(group_count)]
    for index, group in enumerate(groups):
        members[group].append(index)
    members = [np.array(m) for m in members]
    group_vertices = [np.unique(triangles[m]) for m in members]
    group_area = np.bincount(groups, weights=areas, minlength=group_count)
    # Group adjacency across the bent edges, with the angle between the facets there.
    bent = owners[~flat]
    neighbours = [dict() for _ in range(group_count)]
    seed_cos = math.cos(math.radians(settings["seed_deg"]))
    for (t1, t2), cosine in zip(bent, cosines[~flat], strict=True):
        g1, g2 = groups[t1], groups[t2]
        if g1 != g2 and cosine >= seed_cos:
            neighbours[g1][g2] = True
            neighbours[g2][g1] = True
    label = np.full(group_count, -1)
    mesh = _Groups(
        vertices, triangles, normals, members, group_vertices, group_area, neighbours, label
    )
    facet_cos = math.cos(math.radians(settings["seed_deg"] / 2))
    regions: list[Region] = []
    failed = 0
    tried: set = set()
    for start in np.argsort(-group_area, kind="stable"):
        if label[start] != -1 or len(neighbours[start]) < 2:
            continue
        # A seed that fitted nothing fits nothing from another start either (the six planes
        # of a polygon on NIST CTC-01 were tried from each of them): tried once, counted once.
        seeds = [seed for seed in _seeds(start, mesh) if tuple(seed) not in tried]
        if not seeds:
            # No smooth neighbour of its size (a plane between fillets or chamfers, whose
            # facets are far smaller, is no facet of a curved face), or only seeds tried
            # already: nothing is fitted, so it is no failed seed either.
            continue
        grown = _grown_region(seeds, mesh, tolerance, facet_cos)
        if grown is None:
            tried.update(tuple(seed) for seed in seeds)
            failed += 1
            if failed > settings["max_failed_seeds"]:
                raise SegmentationFailed(
                    f"{failed} seeds of facets meeting at small angles fit no cylinder, cone, "
                    "sphere or torus (the first near "
                    + ", ".join(f"{x:.4g}" for x in vertices[group_vertices[start][0]])
                    + ")"
                )
            continue
        taken, surface = grown
        label[taken] = len(regions)
        regions.append(Region(np.concatenate([members[g] for g in taken]), surface))
    planes = _plane_regions(mesh, groups, owners, tolerance)
    facets = _unfitted_facets(label, neighbours, settings["facets_min"], _plane_of(planes, groups))
    if facets:
        # Planar groups bent a little one against the next, many in a row, are the facets
        # of a curved face no fit took: rebuilt as planes, they would read as steps.
        where = ", ".join(f"{x:.4g}" for x in vertices[group_vertices[facets[0]][0]])
        raise SegmentationFailed(
            f"{len(facets)} facets meet their neighbours at small angles but fit no cylinder, "
            f"cone, sphere or torus (the first near {where})"
        )
    regions = _joined_curved(regions, mesh, owners, tolerance, facet_cos)
    return regions + planes


def _plane_of(planes: list[Region], groups) -> dict:
    """{planar group: the plane region it went to}."""
    return {
        int(g): k for k, region in enumerate(planes) for g in np.unique(groups[region.triangles])
    }


def _joined_curved(regions, mesh: _Groups, owners, tolerance, facet_cos) -> list[Region]:
    """The curved regions, where two that meet lie on one surface joined into one: the
    larger's growth can stop short of groups it would fit after a refit, which then seed a
    region of their own (20 facets of bearing_block's counterbore, delivered turned, fitted
    an axis 4e-6 askew, and the wall read as no full turn). Joined when one refit of the
    larger's surface holds both within tolerance and along their facets."""
    labels = triangle_labels(regions, len(mesh.triangles))
    pairs = labels[owners]
    pairs = np.unique(np.sort(pairs[pairs[:, 0] != pairs[:, 1]], axis=1), axis=0)
    alive = {k: region for k, region in enumerate(regions)}
    into: dict = {}  # a joined region: the one it joined

    def joined(k):
        while k in into:
            k = into[k]
        return k

    for a, b in pairs:
        if a < 0:  # a facet of no curved region
            continue
        a, b = joined(int(a)), joined(int(b))
        if (
            a == b
            or a not in alive
            or b not in alive
            or alive[a].surface.kind != alive[b].surface.kind
        ):
            continue
        first, second = sorted((a, b), key=lambda k: (-len(alive[k].triangles), k))
        facets = np.concatenate([alive[first].triangles, alive[second].triangles])
        points = mesh.vertices[np.unique(mesh.triangles[facets])]
        surface = surface_fitting.refined(alive[first].surface, points)
        if surface.residual <= tolerance and _facets_along(mesh, facets, surface, facet_cos):
            alive[first] = Region(np.sort(facets), surface)
            del alive[second]
            into[second] = first
    return [alive[k] for k in sorted(alive)]


def _facets_along(mesh: _Groups, facets, surface, facet_cos: float) -> bool:
    """Whether every facet's normal is within facet_cos of the surface's at its centre."""
    centres = mesh.vertices[mesh.triangles[facets]].mean(axis=1)
    along = np.abs(
        np.einsum("ij,ij->i", surface_fitting.normals_at(surface, centres), mesh.normals[facets])
    )
    return bool(along.min() >= facet_cos)


def _plane_regions(mesh: _Groups, groups, owners, tolerance: float) -> list[Region]:
    """The planar groups no curved region took, as planes, where a plane whose vertices
    all lie within tolerance of a larger neighbouring plane joins it (repeatedly, smallest
    first). A sliver facet on a plane delivered turned tilts beyond flat_deg by the STL's
    float32 rounding alone (0.002 mm2 in a pocket's corner on fillet_block), and as a plane
    of its own it made the pocket's floor no closed outline."""
    free = [int(g) for g in np.flatnonzero(mesh.label == -1)]
    touching: dict = {g: set() for g in free}
    for g1, g2 in groups[owners]:
        if g1 != g2 and mesh.label[g1] == -1 and mesh.label[g2] == -1:
            touching[int(g1)].add(int(g2))
            touching[int(g2)].add(int(g1))
    planes = {g: [g] for g in free}  # each plane, named by the group it began as: its groups
    surface = {g: _group_plane(mesh, g) for g in free}
    owner = {g: g for g in free}
    merged = True
    while merged:
        merged = False
        for name in sorted(planes, key=lambda n: (mesh.area[planes[n]].sum(), n)):
            if name not in planes:  # joined a larger one in this pass
                continue
            area = mesh.area[planes[name]].sum()
            points = mesh.vertices[
                np.unique(np.concatenate([mesh.vertices_of[g] for g in planes[name]]))
            ]
            around = {owner[o] for g in planes[name] for o in touching[g]} - {name}
            for other in sorted(around, key=lambda n: (-mesh.area[planes[n]].sum(), n)):
                if mesh.area[planes[other]].sum() < area:
                    continue
                if surface[other].distances(points).max() <= tolerance:
                    for g in planes.pop(name):
                        owner[g] = other
                        planes[other].append(g)
                    merged = True
                    break
    # In group order, as before: the regions' numbering decides nothing but stays stable.
    return [
        Region(np.concatenate([mesh.members[g] for g in sorted(planes[name])]), surface[name])
        for name in sorted(planes)
    ]


def _group_plane(mesh: _Groups, group: int):
    plane = surface_fitting.plane_fit(mesh.vertices[mesh.vertices_of[group]])
    # The plane's normal turned to the triangles' side (outward on a closed mesh).
    if plane.axis @ mesh.normals[mesh.members[group][0]] < 0:
        plane.axis = -plane.axis
    return plane


def _unfitted_facets(label, neighbours, smallest: int, plane_of: dict) -> list:
    """Unassigned planar groups in runs of at least `smallest` planes joined by small
    bends. Counted in planes, not groups: the groups of one plane (split by float32
    rounding on a part delivered turned: NIST FTC-08's, FTC-06's and FTC-09's STLs) are one
    face, not facets of a curved face no fit took."""
    seen, found = set(), []
    for start in range(len(label)):
        if label[start] != -1 or start in seen:
            continue
        run, queue = [], [start]
        seen.add(start)
        while queue:
            group = queue.pop()
            run.append(group)
            for other in neighbours[group]:
                if label[other] == -1 and other not in seen:
                    seen.add(other)
                    queue.append(other)
        if len({plane_of[g] for g in run}) >= smallest:
            found += sorted(run)
    return found


def _vertex_normals(vertices, triangles, normals, chosen: np.ndarray):
    """(vertex indices, their unit normals averaged over the chosen triangles)."""
    corners = triangles[chosen].reshape(-1)
    sums = np.zeros((len(vertices), 3))
    np.add.at(sums, corners, np.repeat(normals[chosen], 3, axis=0))
    used = np.unique(corners)
    found = sums[used]
    return used, found / np.maximum(np.linalg.norm(found, axis=1), surface_fitting.TINY)[:, None]


def _grown_region(seeds, mesh: _Groups, tolerance: float, facet_cos: float):
    """(groups, surface) of the curved region grown from one seed group, or None.

    facet_cos: a group joins only if its facets' normals are within this cosine of the
    surface's at their centres. A facet's normal lies between its surface's normals at
    its corners, within half the bend to the next facet (at most seed_deg / 2): a flat
    end disc meshed without an inner vertex has every vertex on the rim where it meets a
    45-degree chamfer, so it passes on its vertices alone (turned_shaft's ends)."""
    vertices, triangles, normals = mesh.vertices, mesh.triangles, mesh.normals
    members, group_vertices, neighbours, label = (
        mesh.members,
        mesh.vertices_of,
        mesh.neighbours,
        mesh.label,
    )

    def facets_along(facets, surface) -> bool:
        return _facets_along(mesh, facets, surface, facet_cos)

    def lies_on(group, surface):
        distance = surface.distances(vertices[group_vertices[group]]).max()
        if distance > tolerance:
            return distance
        return distance if facets_along(members[group], surface) else math.inf

    surface = None
    for seed in seeds:
        chosen = np.concatenate([members[g] for g in seed])
        used, vertex_normals = _vertex_normals(vertices, triangles, normals, chosen)
        fitted = surface_fitting.best_fit(vertices[used], vertex_normals, tolerance)
        # Vertices on two rims fit a torus as well as the band's cylinder: the facets'
        # normals tell them apart (a groove floor's seed read as a torus 28 deg askew).
        if fitted is not None and fitted.kind != "plane" and facets_along(chosen, fitted):
            surface, taken = fitted, set(seed)
            break
    if surface is None:
        return None
    # Breadth-first growth on the current fit; the groups just outside it (a seed's fit
    # extrapolates) wait until the region has grown, then a refit on all it holds decides
    # them. Refits happen once per wave, so a region costs a few fits, not one per group.
    queue, waiting = sorted(taken), set()
    while queue:
        while queue:
            group = queue.pop()
            for other in sorted(neighbours[group]):
                if other in taken or label[other] != -1:
                    continue
                distance = lies_on(other, surface)
                if distance <= tolerance:
                    taken.add(other)
                    waiting.discard(other)
                    queue.append(other)
                elif distance <= _WAITING_FAR * tolerance:
                    waiting.add(other)
        if not waiting:
            break
        refit = _refit(surface, taken, group_vertices, vertices, tolerance)
        if refit is None:
            break
        surface = refit
        queue = [g for g in sorted(waiting) if lies_on(g, surface) <= tolerance]
        if not queue:
            break
        taken.update(queue)
        waiting.difference_update(queue)
    final = _refit(surface, taken, group_vertices, vertices, tolerance)
    if final is None:
        return None
    # The kind chosen again on the whole region: a seed's few rings of vertices fit a
    # sphere as well as the cone or cylinder the whole region is.
    chosen = np.concatenate([members[g] for g in sorted(taken)])
    used, vertex_normals = _vertex_normals(vertices, triangles, normals, chosen)
    simplest = surface_fitting.best_fit(vertices[used], vertex_normals, tolerance)
    if simplest is not None and simplest.kind != "plane" and facets_along(chosen, simplest):
        final = simplest
    if not facets_along(chosen, final):
        return None
    return sorted(taken), final


def _seeds(start, mesh: _Groups, wanted=(16, 40)):
    """Seeds around a group: the rings of free smooth neighbours (breadth first) until the
    seed holds each wanted count of vertices (a torus has 7 parameters: 16 vertices
    overdetermine it twice; the wider seed is tried when the narrow one fails). Facets of
    one curved face are of a size: a neighbour four times larger or smaller (the plane a
    fillet runs into) is left out of the seed, though the region may grow into it."""
    label, neighbours = mesh.label, mesh.neighbours
    group_vertices, group_area = mesh.vertices_of, mesh.area
    low, high = group_area[start] / 4, group_area[start] * 4
    seed, frontier = {start}, [start]
    # Distinct vertices: neighbouring groups share theirs (single-triangle groups on a
    # doubly curved or thin face counted 3 each, so a "40-vertex" seed held 16).
    used = set(group_vertices[start].tolist())
    for target in wanted:
        while len(used) < target and frontier:
            nxt = []
            for g in frontier:
                for h in neighbours[g]:
                    if h not in seed and label[h] == -1 and low <= group_area[h] <= high:
                        seed.add(h)
                        nxt.append(h)
                        used.update(group_vertices[h].tolist())
            frontier = nxt
        if len(seed) > 1:
            yield sorted(seed)
        if not frontier:
            return


def _refit(surface, taken, group_vertices, vertices, tolerance):
    points = vertices[np.unique(np.concatenate([group_vertices[g] for g in taken]))]
    fitted = surface_fitting.refined(surface, points)
    return fitted if fitted.residual <= tolerance else None


def connected_regions(regions: list[Region], triangles: np.ndarray) -> list[Region]:
    """The regions cut into their edge-connected pieces, each on its region's surface: a
    face is one piece (a half of a groove's floor split at the azimuth came in two patches,
    whose second loop would otherwise be cut out of the first as a hole)."""
    labels = triangle_labels(regions, len(triangles))
    owners, _ = edge_pairs(triangles)
    joined = owners[labels[owners[:, 0]] == labels[owners[:, 1]]]
    pieces = _components(len(triangles), joined)
    found = []
    for region in regions:
        own = pieces[region.triangles]
        for piece in np.unique(own):
            found.append(Region(region.triangles[own == piece], region.surface))
    return found


def triangle_labels(regions: list[Region], count: int) -> np.ndarray:
    labels = np.full(count, -1)
    for number, region in enumerate(regions):
        labels[region.triangles] = number
    return labels


def boundary_loops(triangles: np.ndarray, labels: np.ndarray) -> dict:
    """Each region's boundary loops: {region: [[(vertex, neighbouring region), ...]]}, in
    the triangles' orientation (the region on the left seen from outside)."""
    owners, ends = edge_pairs(triangles)
    outgoing: dict = {}
    for (t1, t2), (low, high) in zip(owners, ends, strict=True):
        if labels[t1] == labels[t2]:
            continue
        for t, other in ((t1, t2), (t2, t1)):
            tri = [int(v) for v in triangles[t]]
            k = tri.index(int(low))
            a, b = (low, high) if tri[(k + 1) % 3] == high else (high, low)
            region = int(labels[t])
            starts = outgoing.setdefault(region, {})
            if int(a) in starts:
                raise SegmentationFailed(f"region {region} touches itself at mesh vertex {a}")
            starts[int(a)] = (int(b), int(labels[other]))
    loops: dict = {}
    for region, starts in outgoing.items():
        seen: set = set()
        for begin in sorted(starts):
            if begin in seen:
                continue
            loop, vertex = [], begin
            while vertex not in seen:
                seen.add(vertex)
                if vertex not in starts:
                    raise SegmentationFailed(f"region {region}'s boundary does not close")
                after, neighbour = starts[vertex]
                loop.append((vertex, neighbour))
                vertex = after
            if vertex != begin:
                raise SegmentationFailed(f"region {region}'s boundary does not close")
            loops.setdefault(region, []).append(loop)
    return loops


def chains_of(loop: list) -> list[Chain]:
    """A loop cut where its neighbouring region changes: one chain per neighbour run,
    each with both end vertices (the next chain starts where this one ends)."""
    count = len(loop)
    corners = [i for i in range(count) if loop[i][1] != loop[i - 1][1]]
    if not corners:
        return [Chain((None, loop[0][1]), [v for v, _ in loop], True)]
    chains = []
    for k, begin in enumerate(corners):
        end = corners[(k + 1) % len(corners)]
        span = (end - begin) % count or count
        vertices = [loop[(begin + i) % count][0] for i in range(span + 1)]
        chains.append(Chain((None, loop[begin][1]), vertices, False))
    return chains


def split_at_corners(chain: Chain, vertices: np.ndarray, corner_deg: float) -> list[Chain]:
    """The chain cut at its corners: vertices where the polyline turns by more than
    corner_deg (a tessellated curve turns by at most its angular deflection from one
    segment to the next; seed_deg bounds that). Between the two halves of a drill point's
    cone the chain runs rim, apex, rim: one B-spline through that kink made the half's
    face a self-intersecting wire (NIST CTC-01, and a 6.35 mm drill's own STL); cut at the
    apex it is the two lines it is."""
    points = vertices[chain.vertices]
    ring = np.vstack([points, points[:1]]) if chain.closed else points
    steps = np.diff(ring, axis=0)
    lengths = np.linalg.norm(steps, axis=1)
    units = steps / np.maximum(lengths, surface_fitting.TINY)[:, None]
    if chain.closed:
        cosines = np.einsum("ij,ij->i", units, np.roll(units, 1, axis=0))
        corners = np.flatnonzero(cosines < math.cos(math.radians(corner_deg)))
    else:
        cosines = np.einsum("ij,ij->i", units[1:], units[:-1])
        corners = np.flatnonzero(cosines < math.cos(math.radians(corner_deg))) + 1
    if len(corners) == 0:
        return [chain]
    count = len(chain.vertices)
    if chain.closed:
        # Each piece runs from one corner to the next, both included.
        pieces = []
        for k, begin in enumerate(corners):
            end = corners[(k + 1) % len(corners)]
            span = (end - begin) % count or count
            pieces.append([chain.vertices[(begin + i) % count] for i in range(span + 1)])
    else:
        cuts = [0, *corners.tolist(), count - 1]
        pieces = [chain.vertices[a : b + 1] for a, b in zip(cuts[:-1], cuts[1:], strict=True)]
    return [Chain(chain.regions, piece, False) for piece in pieces]

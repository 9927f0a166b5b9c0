#include "engine/tournament/matching.h"

#include <algorithm>
#include <optional>
#include <stdexcept>

namespace tengen::tournament {
namespace {

// The primal-dual method: vertices and blossoms carry dual variables; an edge is "tight" when
// its slack is zero. Each stage grows alternating trees from the free vertices along tight
// edges, shrinking odd cycles into blossoms, until an augmenting path is found or the duals
// must change. Endpoints are numbered 2k and 2k+1 for edge k, so that `p ^ 1` is the other end.
// Labels: 0 free, 1 outer (S), 2 inner (T); 5 marks a blossom during scan_blossom.
class Matcher {
 public:
  Matcher(int n, const std::vector<WeightedEdge>& edges, bool max_cardinality)
      : n_(n), edges_(edges), max_cardinality_(max_cardinality) {
    Weight max_weight = 0;
    for (const auto& e : edges_) {
      if (e.a < 0 || e.b < 0 || e.a >= n || e.b >= n || e.a == e.b) {
        throw std::invalid_argument(
            "maximum_weight_matching: an edge names a vertex that does not exist");
      }
      max_weight = std::max(max_weight, e.weight);
    }
    endpoint_.resize(2 * edges_.size());
    for (std::size_t k = 0; k < edges_.size(); ++k) {
      endpoint_[2 * k] = edges_[k].a;
      endpoint_[2 * k + 1] = edges_[k].b;
    }
    neighbend_.resize(n);
    for (std::size_t k = 0; k < edges_.size(); ++k) {
      neighbend_[edges_[k].a].push_back(static_cast<int>(2 * k + 1));
      neighbend_[edges_[k].b].push_back(static_cast<int>(2 * k));
    }
    mate_.assign(n, -1);
    label_.assign(2 * n, 0);
    labelend_.assign(2 * n, -1);
    inblossom_.resize(n);
    for (int v = 0; v < n; ++v) inblossom_[v] = v;
    blossomparent_.assign(2 * n, -1);
    blossomchilds_.resize(2 * n);
    blossombase_.assign(2 * n, -1);
    for (int v = 0; v < n; ++v) blossombase_[v] = v;
    blossomendps_.resize(2 * n);
    bestedge_.assign(2 * n, -1);
    blossombestedges_.resize(2 * n);
    for (int b = 2 * n - 1; b >= n; --b) unused_.push_back(b);
    dualvar_.assign(2 * n, 0);
    for (int v = 0; v < n; ++v) dualvar_[v] = max_weight;
    allowedge_.assign(edges_.size(), false);
  }

  std::vector<int> run() {
    for (int stage = 0; stage < n_; ++stage) {
      if (!stage_augments()) break;
      // End of a stage: expand the outer blossoms whose dual reached zero.
      for (int b = n_; b < 2 * n_; ++b) {
        if (blossomparent_[b] == -1 && blossombase_[b] >= 0 && label_[b] == 1 && dualvar_[b] == 0)
          expand(b, true);
      }
    }
    std::vector<int> mates(n_, -1);
    for (int v = 0; v < n_; ++v) {
      if (mate_[v] >= 0) mates[v] = endpoint_[mate_[v]];
    }
    return mates;
  }

 private:
  Weight slack(int k) const {
    return dualvar_[edges_[k].a] + dualvar_[edges_[k].b] - 2 * edges_[k].weight;
  }

  void leaves(int b, std::vector<int>& out) const {
    if (b < n_) {
      out.push_back(b);
      return;
    }
    for (const int t : blossomchilds_[b]) leaves(t, out);
  }
  std::vector<int> leaves(int b) const {
    std::vector<int> out;
    leaves(b, out);
    return out;
  }

  void assign_label(int w, int t, int p) {
    const int b = inblossom_[w];
    label_[w] = label_[b] = t;
    labelend_[w] = labelend_[b] = p;
    bestedge_[w] = bestedge_[b] = -1;
    if (t == 1) {
      leaves(b, queue_);
    } else if (t == 2) {
      const int base = blossombase_[b];
      assign_label(endpoint_[mate_[base]], 1, mate_[base] ^ 1);
    }
  }

  // Traces back from v and w to find a new blossom's base, or -1 for an augmenting path.
  int scan_blossom(int v, int w) {
    std::vector<int> path;
    int base = -1;
    while (v != -1 || w != -1) {
      int b = inblossom_[v];
      if (label_[b] & 4) {
        base = blossombase_[b];
        break;
      }
      path.push_back(b);
      label_[b] = 5;
      if (labelend_[b] == -1) {
        v = -1;
      } else {
        v = endpoint_[labelend_[b]];
        b = inblossom_[v];
        v = endpoint_[labelend_[b]];
      }
      if (w != -1) std::swap(v, w);
    }
    for (const int b : path) label_[b] = 1;
    return base;
  }

  void add_blossom(int base, int k) {
    int v = edges_[k].a, w = edges_[k].b;
    const int bb = inblossom_[base];
    int bv = inblossom_[v], bw = inblossom_[w];
    const int b = unused_.back();
    unused_.pop_back();
    blossombase_[b] = base;
    blossomparent_[b] = -1;
    blossomparent_[bb] = b;
    auto& path = blossomchilds_[b];
    auto& endps = blossomendps_[b];
    path.clear();
    endps.clear();
    while (bv != bb) {
      blossomparent_[bv] = b;
      path.push_back(bv);
      endps.push_back(labelend_[bv]);
      v = endpoint_[labelend_[bv]];
      bv = inblossom_[v];
    }
    path.push_back(bb);
    std::reverse(path.begin(), path.end());
    std::reverse(endps.begin(), endps.end());
    endps.push_back(2 * k);
    while (bw != bb) {
      blossomparent_[bw] = b;
      path.push_back(bw);
      endps.push_back(labelend_[bw] ^ 1);
      w = endpoint_[labelend_[bw]];
      bw = inblossom_[w];
    }
    label_[b] = 1;
    labelend_[b] = labelend_[bb];
    dualvar_[b] = 0;
    for (const int leaf : leaves(b)) {
      if (label_[inblossom_[leaf]] == 2) queue_.push_back(leaf);
      inblossom_[leaf] = b;
    }
    // The least-slack edge from the new blossom to each other outer blossom.
    std::vector<int> bestedgeto(2 * n_, -1);
    for (const int child : path) {
      std::vector<std::vector<int>> lists;
      if (!blossombestedges_[child]) {
        for (const int leaf : leaves(child)) {
          std::vector<int> list;
          for (const int p : neighbend_[leaf]) list.push_back(p / 2);
          lists.push_back(std::move(list));
        }
      } else {
        lists.push_back(*blossombestedges_[child]);
      }
      for (const auto& list : lists) {
        for (const int e : list) {
          int i = edges_[e].a, j = edges_[e].b;
          if (inblossom_[j] == b) std::swap(i, j);
          const int bj = inblossom_[j];
          if (bj != b && label_[bj] == 1 &&
              (bestedgeto[bj] == -1 || slack(e) < slack(bestedgeto[bj]))) {
            bestedgeto[bj] = e;
          }
        }
      }
      blossombestedges_[child].reset();
      bestedge_[child] = -1;
    }
    std::vector<int> best;
    for (const int e : bestedgeto) {
      if (e != -1) best.push_back(e);
    }
    bestedge_[b] = -1;
    for (const int e : best) {
      if (bestedge_[b] == -1 || slack(e) < slack(bestedge_[b])) bestedge_[b] = e;
    }
    blossombestedges_[b] = std::move(best);
  }

  int child_index(int b, int child) const {
    const auto& c = blossomchilds_[b];
    return static_cast<int>(std::find(c.begin(), c.end(), child) - c.begin());
  }
  // Children and endpoints are walked around the cycle with negative indices wrapping.
  int& child_at(int b, int j) {
    auto& c = blossomchilds_[b];
    return c[(j % static_cast<int>(c.size()) + c.size()) % c.size()];
  }
  int endp_at(int b, int j) const {
    const auto& e = blossomendps_[b];
    return e[(j % static_cast<int>(e.size()) + e.size()) % e.size()];
  }

  // From child j back to the base (child 0) the even way round the cycle: forwards from an odd
  // j (as a negative index), backwards from an even one. `trick` picks which endpoint of each
  // step's edge to read.
  struct Walk {
    int j, step, trick;
  };
  Walk walk_to_base(int b, int j) const {
    if (j & 1) return {j - static_cast<int>(blossomchilds_[b].size()), 1, 0};
    return {j, -1, 1};
  }

  void expand(int b, bool endstage) {
    for (const int s : blossomchilds_[b]) {
      blossomparent_[s] = -1;
      if (s < n_) {
        inblossom_[s] = s;
      } else if (endstage && dualvar_[s] == 0) {
        expand(s, endstage);
      } else {
        for (const int leaf : leaves(s)) inblossom_[leaf] = s;
      }
    }
    if (!endstage && label_[b] == 2) relabel_expanded(b);
    label_[b] = labelend_[b] = -1;
    blossomchilds_[b].clear();
    blossomendps_[b].clear();
    blossombase_[b] = -1;
    blossombestedges_[b].reset();
    bestedge_[b] = -1;
    unused_.push_back(b);
  }

  // An inner blossom expanded in mid-stage: its children on the path from where the tree
  // enters to the base become inner/outer in turn; the others lose their labels.
  void relabel_expanded(int b) {
    const int entrychild = inblossom_[endpoint_[labelend_[b] ^ 1]];
    auto [j, jstep, endptrick] = walk_to_base(b, child_index(b, entrychild));
    int p = labelend_[b];
    while (j != 0) {
      label_[endpoint_[p ^ 1]] = 0;
      label_[endpoint_[endp_at(b, j - endptrick) ^ endptrick ^ 1]] = 0;
      assign_label(endpoint_[p ^ 1], 2, p);
      allowedge_[endp_at(b, j - endptrick) / 2] = true;
      j += jstep;
      p = endp_at(b, j - endptrick) ^ endptrick;
      allowedge_[p / 2] = true;
      j += jstep;
    }
    int bv = child_at(b, j);
    label_[endpoint_[p ^ 1]] = label_[bv] = 2;
    labelend_[endpoint_[p ^ 1]] = labelend_[bv] = p;
    bestedge_[bv] = -1;
    j += jstep;
    while (child_at(b, j) != entrychild) {
      bv = child_at(b, j);
      if (label_[bv] == 1) {
        j += jstep;
        continue;
      }
      int labelled = -1;
      for (const int leaf : leaves(bv)) {
        if (label_[leaf] != 0) {
          labelled = leaf;
          break;
        }
      }
      if (labelled != -1) {
        label_[labelled] = 0;
        label_[endpoint_[mate_[blossombase_[bv]]]] = 0;
        assign_label(labelled, 2, labelend_[labelled]);
      }
      j += jstep;
    }
  }

  // Swaps matched and unmatched edges on the path inside blossom b from vertex v to its base,
  // and makes v the new base.
  void augment_blossom(int b, int v) {
    int t = v;
    while (blossomparent_[t] != b) t = blossomparent_[t];
    if (t >= n_) augment_blossom(t, v);
    const int i = child_index(b, t);
    auto [j, jstep, endptrick] = walk_to_base(b, i);
    while (j != 0) {
      j += jstep;
      t = child_at(b, j);
      const int p = endp_at(b, j - endptrick) ^ endptrick;
      if (t >= n_) augment_blossom(t, endpoint_[p]);
      j += jstep;
      t = child_at(b, j);
      if (t >= n_) augment_blossom(t, endpoint_[p ^ 1]);
      mate_[endpoint_[p]] = p ^ 1;
      mate_[endpoint_[p ^ 1]] = p;
    }
    auto& childs = blossomchilds_[b];
    std::rotate(childs.begin(), childs.begin() + i, childs.end());
    auto& endps = blossomendps_[b];
    std::rotate(endps.begin(), endps.begin() + i, endps.end());
    blossombase_[b] = blossombase_[childs[0]];
  }

  void augment_matching(int k) {
    for (auto [s, p] : {std::pair{edges_[k].a, 2 * k + 1}, std::pair{edges_[k].b, 2 * k}}) {
      while (true) {
        const int bs = inblossom_[s];
        if (bs >= n_) augment_blossom(bs, s);
        mate_[s] = p;
        if (labelend_[bs] == -1) break;
        const int t = endpoint_[labelend_[bs]];
        const int bt = inblossom_[t];
        s = endpoint_[labelend_[bt]];
        const int j = endpoint_[labelend_[bt] ^ 1];
        if (bt >= n_) augment_blossom(bt, j);
        mate_[j] = labelend_[bt];
        p = labelend_[bt] ^ 1;
      }
    }
  }

  // Scans the queue of outer vertices along tight edges; true if the matching grew.
  bool scan_queue() {
    while (!queue_.empty()) {
      const int v = queue_.back();
      queue_.pop_back();
      for (const int p : neighbend_[v]) {
        const int k = p / 2;
        const int w = endpoint_[p];
        if (inblossom_[v] == inblossom_[w]) continue;
        Weight kslack = 0;
        if (!allowedge_[k]) {
          kslack = slack(k);
          if (kslack <= 0) allowedge_[k] = true;
        }
        if (allowedge_[k]) {
          if (label_[inblossom_[w]] == 0) {
            assign_label(w, 2, p ^ 1);
          } else if (label_[inblossom_[w]] == 1) {
            const int base = scan_blossom(v, w);
            if (base >= 0) {
              add_blossom(base, k);
            } else {
              augment_matching(k);
              return true;
            }
          } else if (label_[w] == 0) {
            label_[w] = 2;
            labelend_[w] = p ^ 1;
          }
        } else if (label_[inblossom_[w]] == 1) {
          const int b = inblossom_[v];
          if (bestedge_[b] == -1 || kslack < slack(bestedge_[b])) bestedge_[b] = k;
        } else if (label_[w] == 0) {
          if (bestedge_[w] == -1 || kslack < slack(bestedge_[w])) bestedge_[w] = k;
        }
      }
    }
    return false;
  }

  // One stage: true if it found an augmenting path, false if the matching is optimal.
  bool stage_augments() {
    std::fill(label_.begin(), label_.end(), 0);
    std::fill(bestedge_.begin(), bestedge_.end(), -1);
    for (int b = n_; b < 2 * n_; ++b) blossombestedges_[b].reset();
    std::fill(allowedge_.begin(), allowedge_.end(), false);
    queue_.clear();
    for (int v = 0; v < n_; ++v) {
      if (mate_[v] == -1 && label_[inblossom_[v]] == 0) assign_label(v, 1, -1);
    }
    while (true) {
      if (scan_queue()) return true;
      if (!update_duals()) return false;
    }
  }

  // No tight edge left to follow: changes the duals by the largest step that keeps them
  // feasible. False when the optimum is reached.
  bool update_duals() {
    int type = -1;
    Weight delta = 0;
    int edge = -1, blossom = -1;
    if (!max_cardinality_) {
      type = 1;
      delta = *std::min_element(dualvar_.begin(), dualvar_.begin() + n_);
    }
    for (int v = 0; v < n_; ++v) {
      if (label_[inblossom_[v]] == 0 && bestedge_[v] != -1) {
        const Weight d = slack(bestedge_[v]);
        if (type == -1 || d < delta) {
          delta = d;
          type = 2;
          edge = bestedge_[v];
        }
      }
    }
    for (int b = 0; b < 2 * n_; ++b) {
      if (blossomparent_[b] == -1 && label_[b] == 1 && bestedge_[b] != -1) {
        const Weight d = slack(bestedge_[b]) / 2;  // even: both ends are outer
        if (type == -1 || d < delta) {
          delta = d;
          type = 3;
          edge = bestedge_[b];
        }
      }
    }
    for (int b = n_; b < 2 * n_; ++b) {
      if (blossombase_[b] >= 0 && blossomparent_[b] == -1 && label_[b] == 2 &&
          (type == -1 || dualvar_[b] < delta)) {
        delta = dualvar_[b];
        type = 4;
        blossom = b;
      }
    }
    if (type == -1) {  // max cardinality: nothing more to gain; finish with the optimum duals
      type = 1;
      delta = std::max<Weight>(0, *std::min_element(dualvar_.begin(), dualvar_.begin() + n_));
    }
    for (int v = 0; v < n_; ++v) {
      if (label_[inblossom_[v]] == 1)
        dualvar_[v] -= delta;
      else if (label_[inblossom_[v]] == 2)
        dualvar_[v] += delta;
    }
    for (int b = n_; b < 2 * n_; ++b) {
      if (blossombase_[b] >= 0 && blossomparent_[b] == -1) {
        if (label_[b] == 1)
          dualvar_[b] += delta;
        else if (label_[b] == 2)
          dualvar_[b] -= delta;
      }
    }
    switch (type) {
      case 1:
        return false;
      case 2: {
        allowedge_[edge] = true;
        int i = edges_[edge].a;
        if (label_[inblossom_[i]] == 0) i = edges_[edge].b;
        queue_.push_back(i);
        return true;
      }
      case 3:
        allowedge_[edge] = true;
        queue_.push_back(edges_[edge].a);
        return true;
      default:
        expand(blossom, false);
        return true;
    }
  }

  int n_;
  const std::vector<WeightedEdge>& edges_;
  bool max_cardinality_;
  std::vector<int> endpoint_;
  std::vector<std::vector<int>> neighbend_;
  std::vector<int> mate_, label_, labelend_, inblossom_, blossomparent_, blossombase_, bestedge_;
  std::vector<std::vector<int>> blossomchilds_, blossomendps_;
  std::vector<std::optional<std::vector<int>>> blossombestedges_;
  std::vector<int> unused_;
  std::vector<Weight> dualvar_;
  std::vector<bool> allowedge_;
  std::vector<int> queue_;
};

}  // namespace

std::vector<int> maximum_weight_matching(int vertices, const std::vector<WeightedEdge>& edges,
                                         bool max_cardinality) {
  if (vertices <= 0) return {};
  if (edges.empty()) return std::vector<int>(vertices, -1);
  return Matcher(vertices, edges, max_cardinality).run();
}

}  // namespace tengen::tournament

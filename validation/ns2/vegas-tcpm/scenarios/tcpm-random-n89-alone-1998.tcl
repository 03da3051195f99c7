# Generated from a ccsim spec by validation/ns2/translate.py
set ns [new Simulator]
global defaultRNG; $defaultRNG seed 2
proc ccsim_json_num {x} { if {[string is double -strict $x]} { return $x } else { return null } }
set n(n0) [$ns node]
set n(n90) [$ns node]
set n(n28) [$ns node]
set n(n57) [$ns node]
set n(n68) [$ns node]
set n(n12) [$ns node]
set n(n18) [$ns node]
set n(n86) [$ns node]
set n(n89) [$ns node]
$ns duplex-link $n(n0) $n(n90) 50000 0.043 DropTail
set q [[$ns link $n(n0) $n(n90)] queue]
$q set limit_ 51
set qm(n0->n90) [$ns makeflowmon Fid]; $qm(n0->n90) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n0) $n(n90)] $qm(n0->n90)
set q [[$ns link $n(n90) $n(n0)] queue]
$q set limit_ 51
set qm(n90->n0) [$ns makeflowmon Fid]; $qm(n90->n0) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n90) $n(n0)] $qm(n90->n0)
$ns duplex-link $n(n90) $n(n28) 100000 0.035 DropTail
set q [[$ns link $n(n90) $n(n28)] queue]
$q set limit_ 51
set qm(n90->n28) [$ns makeflowmon Fid]; $qm(n90->n28) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n90) $n(n28)] $qm(n90->n28)
set q [[$ns link $n(n28) $n(n90)] queue]
$q set limit_ 51
set qm(n28->n90) [$ns makeflowmon Fid]; $qm(n28->n90) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n28) $n(n90)] $qm(n28->n90)
$ns duplex-link $n(n28) $n(n57) 100000 0.014 DropTail
set q [[$ns link $n(n28) $n(n57)] queue]
$q set limit_ 51
set qm(n28->n57) [$ns makeflowmon Fid]; $qm(n28->n57) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n28) $n(n57)] $qm(n28->n57)
set q [[$ns link $n(n57) $n(n28)] queue]
$q set limit_ 51
set qm(n57->n28) [$ns makeflowmon Fid]; $qm(n57->n28) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n57) $n(n28)] $qm(n57->n28)
$ns duplex-link $n(n57) $n(n68) 100000 0.001 DropTail
set q [[$ns link $n(n57) $n(n68)] queue]
$q set limit_ 51
set qm(n57->n68) [$ns makeflowmon Fid]; $qm(n57->n68) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n57) $n(n68)] $qm(n57->n68)
set q [[$ns link $n(n68) $n(n57)] queue]
$q set limit_ 51
set qm(n68->n57) [$ns makeflowmon Fid]; $qm(n68->n57) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n68) $n(n57)] $qm(n68->n57)
$ns duplex-link $n(n68) $n(n12) 100000 0.022 DropTail
set q [[$ns link $n(n68) $n(n12)] queue]
$q set limit_ 51
set qm(n68->n12) [$ns makeflowmon Fid]; $qm(n68->n12) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n68) $n(n12)] $qm(n68->n12)
set q [[$ns link $n(n12) $n(n68)] queue]
$q set limit_ 51
set qm(n12->n68) [$ns makeflowmon Fid]; $qm(n12->n68) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n12) $n(n68)] $qm(n12->n68)
$ns duplex-link $n(n12) $n(n18) 100000 0.018 DropTail
set q [[$ns link $n(n12) $n(n18)] queue]
$q set limit_ 51
set qm(n12->n18) [$ns makeflowmon Fid]; $qm(n12->n18) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n12) $n(n18)] $qm(n12->n18)
set q [[$ns link $n(n18) $n(n12)] queue]
$q set limit_ 51
set qm(n18->n12) [$ns makeflowmon Fid]; $qm(n18->n12) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n18) $n(n12)] $qm(n18->n12)
$ns duplex-link $n(n18) $n(n86) 100000 0.028 DropTail
set q [[$ns link $n(n18) $n(n86)] queue]
$q set limit_ 51
set qm(n18->n86) [$ns makeflowmon Fid]; $qm(n18->n86) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n18) $n(n86)] $qm(n18->n86)
set q [[$ns link $n(n86) $n(n18)] queue]
$q set limit_ 51
set qm(n86->n18) [$ns makeflowmon Fid]; $qm(n86->n18) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n86) $n(n18)] $qm(n86->n18)
$ns duplex-link $n(n86) $n(n89) 100000 0.043 DropTail
set q [[$ns link $n(n86) $n(n89)] queue]
$q set limit_ 51
set qm(n86->n89) [$ns makeflowmon Fid]; $qm(n86->n89) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n86) $n(n89)] $qm(n86->n89)
set q [[$ns link $n(n89) $n(n86)] queue]
$q set limit_ 51
set qm(n89->n86) [$ns makeflowmon Fid]; $qm(n89->n86) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n89) $n(n86)] $qm(n89->n86)
set a [new Agent/TCP/Vegas]
$a set packetSize_ 1000
$a set window_ 20
$a set windowInit_ 2
$a set maxburst_ 0
$a set tcpTick_ 0.1
$a set rtxcur_init_ 6
$a set minrto_ 0
$a set syn_ false
$a set delay_growth_ false
$a set singledup_ 0
$a set v_alpha_ 1.0
$a set v_beta_ 3.0
$a set v_gamma_ 1.0
$a set fid_ 0
set s [new Agent/TCPSink]; $s set fid_ 1
$ns attach-agent $n(n0) $a; $ns attach-agent $n(n89) $s; $ns connect $a $s
set agent(vegas) $a; set sink(vegas) $s
set app(vegas) [new Application/FTP]; $app(vegas) attach-agent $a
$ns at 2.4596 "$app(vegas) start"
set tf(vegas) [open {./vegas.ns2trace} w]
$a attach $tf(vegas); $a trace cwnd_; $a trace ssthresh_; $a trace srtt_; $a trace rttvar_; $a trace backoff_
set ns_last_sample 0; set ns_sample_k 0
proc sample {} {
  global ns agent sink qm ns_last_sample ns_sample_k last_bytes last_sent
  set now [$ns now]; set dt [expr {$now - $ns_last_sample}]
  if {$dt <= 0} { return }
  if {$now > 2.4596} {
    set b [$sink(vegas) set bytes_]; if {![info exists last_bytes(vegas)]} { set last_bytes(vegas) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate vegas [expr {($b - $last_bytes(vegas)) * 8.0 * 960 / 1000 / $dt}]"
    set last_bytes(vegas) $b
    puts "CCSIM-NS2-SAMPLE $now cwnd vegas [expr {[$agent(vegas) set cwnd_] * 960}]"
  }
  set ns_last_sample $now; incr ns_sample_k
  set next [expr {($ns_sample_k + 1) * 0.1}]
  if {$next > 60} { set next 60 }
  if {$next > $now} { $ns at $next "sample" }
}
proc snap {tag} {
  global agent sink qm snapshot ns
  foreach d [array names qm] { foreach f [$qm($d) flows] {
    set k $tag,fid,[$f set flowid_]
    if {![info exists snapshot($k)]} { set snapshot($k) 0 }
    set snapshot($k) [expr {$snapshot($k) + [$f set pdrops_]}]
    set snapshot($tag,arrivals,$d,[$f set flowid_]) [$f set parrivals_]
  } }
  set snapshot($tag,vegas) [list [$sink(vegas) set bytes_] [$agent(vegas) set nrexmit_] [$agent(vegas) set nrexmitpack_] [$agent(vegas) set ndatapack_]]
  [$qm(n0->n90) get-pkts-integrator] newpoint [$ns now] [$qm(n0->n90) set pkts_]
  set snapshot($tag,n0->n90) [list [$qm(n0->n90) set bdepartures_] [$qm(n0->n90) set pdepartures_] [$qm(n0->n90) set pdrops_] [[$qm(n0->n90) get-pkts-integrator] set sum_] [$qm(n0->n90) set pkts_]]
  [$qm(n90->n0) get-pkts-integrator] newpoint [$ns now] [$qm(n90->n0) set pkts_]
  set snapshot($tag,n90->n0) [list [$qm(n90->n0) set bdepartures_] [$qm(n90->n0) set pdepartures_] [$qm(n90->n0) set pdrops_] [[$qm(n90->n0) get-pkts-integrator] set sum_] [$qm(n90->n0) set pkts_]]
  [$qm(n90->n28) get-pkts-integrator] newpoint [$ns now] [$qm(n90->n28) set pkts_]
  set snapshot($tag,n90->n28) [list [$qm(n90->n28) set bdepartures_] [$qm(n90->n28) set pdepartures_] [$qm(n90->n28) set pdrops_] [[$qm(n90->n28) get-pkts-integrator] set sum_] [$qm(n90->n28) set pkts_]]
  [$qm(n28->n90) get-pkts-integrator] newpoint [$ns now] [$qm(n28->n90) set pkts_]
  set snapshot($tag,n28->n90) [list [$qm(n28->n90) set bdepartures_] [$qm(n28->n90) set pdepartures_] [$qm(n28->n90) set pdrops_] [[$qm(n28->n90) get-pkts-integrator] set sum_] [$qm(n28->n90) set pkts_]]
  [$qm(n28->n57) get-pkts-integrator] newpoint [$ns now] [$qm(n28->n57) set pkts_]
  set snapshot($tag,n28->n57) [list [$qm(n28->n57) set bdepartures_] [$qm(n28->n57) set pdepartures_] [$qm(n28->n57) set pdrops_] [[$qm(n28->n57) get-pkts-integrator] set sum_] [$qm(n28->n57) set pkts_]]
  [$qm(n57->n28) get-pkts-integrator] newpoint [$ns now] [$qm(n57->n28) set pkts_]
  set snapshot($tag,n57->n28) [list [$qm(n57->n28) set bdepartures_] [$qm(n57->n28) set pdepartures_] [$qm(n57->n28) set pdrops_] [[$qm(n57->n28) get-pkts-integrator] set sum_] [$qm(n57->n28) set pkts_]]
  [$qm(n57->n68) get-pkts-integrator] newpoint [$ns now] [$qm(n57->n68) set pkts_]
  set snapshot($tag,n57->n68) [list [$qm(n57->n68) set bdepartures_] [$qm(n57->n68) set pdepartures_] [$qm(n57->n68) set pdrops_] [[$qm(n57->n68) get-pkts-integrator] set sum_] [$qm(n57->n68) set pkts_]]
  [$qm(n68->n57) get-pkts-integrator] newpoint [$ns now] [$qm(n68->n57) set pkts_]
  set snapshot($tag,n68->n57) [list [$qm(n68->n57) set bdepartures_] [$qm(n68->n57) set pdepartures_] [$qm(n68->n57) set pdrops_] [[$qm(n68->n57) get-pkts-integrator] set sum_] [$qm(n68->n57) set pkts_]]
  [$qm(n68->n12) get-pkts-integrator] newpoint [$ns now] [$qm(n68->n12) set pkts_]
  set snapshot($tag,n68->n12) [list [$qm(n68->n12) set bdepartures_] [$qm(n68->n12) set pdepartures_] [$qm(n68->n12) set pdrops_] [[$qm(n68->n12) get-pkts-integrator] set sum_] [$qm(n68->n12) set pkts_]]
  [$qm(n12->n68) get-pkts-integrator] newpoint [$ns now] [$qm(n12->n68) set pkts_]
  set snapshot($tag,n12->n68) [list [$qm(n12->n68) set bdepartures_] [$qm(n12->n68) set pdepartures_] [$qm(n12->n68) set pdrops_] [[$qm(n12->n68) get-pkts-integrator] set sum_] [$qm(n12->n68) set pkts_]]
  [$qm(n12->n18) get-pkts-integrator] newpoint [$ns now] [$qm(n12->n18) set pkts_]
  set snapshot($tag,n12->n18) [list [$qm(n12->n18) set bdepartures_] [$qm(n12->n18) set pdepartures_] [$qm(n12->n18) set pdrops_] [[$qm(n12->n18) get-pkts-integrator] set sum_] [$qm(n12->n18) set pkts_]]
  [$qm(n18->n12) get-pkts-integrator] newpoint [$ns now] [$qm(n18->n12) set pkts_]
  set snapshot($tag,n18->n12) [list [$qm(n18->n12) set bdepartures_] [$qm(n18->n12) set pdepartures_] [$qm(n18->n12) set pdrops_] [[$qm(n18->n12) get-pkts-integrator] set sum_] [$qm(n18->n12) set pkts_]]
  [$qm(n18->n86) get-pkts-integrator] newpoint [$ns now] [$qm(n18->n86) set pkts_]
  set snapshot($tag,n18->n86) [list [$qm(n18->n86) set bdepartures_] [$qm(n18->n86) set pdepartures_] [$qm(n18->n86) set pdrops_] [[$qm(n18->n86) get-pkts-integrator] set sum_] [$qm(n18->n86) set pkts_]]
  [$qm(n86->n18) get-pkts-integrator] newpoint [$ns now] [$qm(n86->n18) set pkts_]
  set snapshot($tag,n86->n18) [list [$qm(n86->n18) set bdepartures_] [$qm(n86->n18) set pdepartures_] [$qm(n86->n18) set pdrops_] [[$qm(n86->n18) get-pkts-integrator] set sum_] [$qm(n86->n18) set pkts_]]
  [$qm(n86->n89) get-pkts-integrator] newpoint [$ns now] [$qm(n86->n89) set pkts_]
  set snapshot($tag,n86->n89) [list [$qm(n86->n89) set bdepartures_] [$qm(n86->n89) set pdepartures_] [$qm(n86->n89) set pdrops_] [[$qm(n86->n89) get-pkts-integrator] set sum_] [$qm(n86->n89) set pkts_]]
  [$qm(n89->n86) get-pkts-integrator] newpoint [$ns now] [$qm(n89->n86) set pkts_]
  set snapshot($tag,n89->n86) [list [$qm(n89->n86) set bdepartures_] [$qm(n89->n86) set pdepartures_] [$qm(n89->n86) set pdrops_] [[$qm(n89->n86) get-pkts-integrator] set sum_] [$qm(n89->n86) set pkts_]]
}
proc lost {fid} {
  global snapshot
  set e 0; set b 0
  if {[info exists snapshot(end,fid,$fid)]} { set e $snapshot(end,fid,$fid) }
  if {[info exists snapshot(warm,fid,$fid)]} { set b $snapshot(warm,fid,$fid) }
  return [expr {$e - $b}]
}
proc lost_life {fid} {
  global snapshot
  if {[info exists snapshot(end,fid,$fid)]} { return $snapshot(end,fid,$fid) }
  return 0
}
proc finish {} {
  global snapshot ns ns_last_sample
  if {$ns_last_sample < 60} { sample }
  snap end
  set T 60; set W 0; set span 60
  set parts {}
  set b $snapshot(warm,vegas); set e $snapshot(end,vegas)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 960 / 1000 / $span}]
  lappend parts "\"flow:vegas\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 0]}"
  set b $snapshot(warm,n0->n90); set e $snapshot(end,n0->n90)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n0->n90\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (50000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n90->n0); set e $snapshot(end,n90->n0)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n90->n0\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (50000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n90->n28); set e $snapshot(end,n90->n28)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n90->n28\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (100000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n28->n90); set e $snapshot(end,n28->n90)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n28->n90\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (100000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n28->n57); set e $snapshot(end,n28->n57)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n28->n57\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (100000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n57->n28); set e $snapshot(end,n57->n28)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n57->n28\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (100000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n57->n68); set e $snapshot(end,n57->n68)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n57->n68\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (100000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n68->n57); set e $snapshot(end,n68->n57)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n68->n57\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (100000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n68->n12); set e $snapshot(end,n68->n12)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n68->n12\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (100000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n12->n68); set e $snapshot(end,n12->n68)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n12->n68\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (100000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n12->n18); set e $snapshot(end,n12->n18)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n12->n18\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (100000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n18->n12); set e $snapshot(end,n18->n12)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n18->n12\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (100000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n18->n86); set e $snapshot(end,n18->n86)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n18->n86\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (100000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n86->n18); set e $snapshot(end,n86->n18)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n86->n18\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (100000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n86->n89); set e $snapshot(end,n86->n89)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n86->n89\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (100000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n89->n86); set e $snapshot(end,n89->n86)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n89->n86\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (100000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  puts "CCSIM-NS2-RESULT {[join $parts {, }]}"
  exit 0
}
$ns at 0 "snap warm"
$ns at 60 "finish"
$ns at 0.1 "sample"
set qtrace [open {n89-alone-1998.tr} w]
$ns trace-queue $n(n0) $n(n90) $qtrace
$ns trace-queue $n(n90) $n(n0) $qtrace
$ns run

# Generated from a ccsim spec by validation/ns2/translate.py
set ns [new Simulator]
global defaultRNG; $defaultRNG seed 2
proc ccsim_json_num {x} { if {[string is double -strict $x]} { return $x } else { return null } }
set n(n0) [$ns node]
set n(n90) [$ns node]
set n(n28) [$ns node]
set n(n57) [$ns node]
set n(n16) [$ns node]
set n(n97) [$ns node]
set n(n23) [$ns node]
set n(n69) [$ns node]
set n(n74) [$ns node]
set n(n95) [$ns node]
set n(n52) [$ns node]
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
$ns duplex-link $n(n57) $n(n16) 100000 0.009 DropTail
set q [[$ns link $n(n57) $n(n16)] queue]
$q set limit_ 51
set qm(n57->n16) [$ns makeflowmon Fid]; $qm(n57->n16) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n57) $n(n16)] $qm(n57->n16)
set q [[$ns link $n(n16) $n(n57)] queue]
$q set limit_ 51
set qm(n16->n57) [$ns makeflowmon Fid]; $qm(n16->n57) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n16) $n(n57)] $qm(n16->n57)
$ns duplex-link $n(n16) $n(n97) 100000 0.006 DropTail
set q [[$ns link $n(n16) $n(n97)] queue]
$q set limit_ 51
set qm(n16->n97) [$ns makeflowmon Fid]; $qm(n16->n97) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n16) $n(n97)] $qm(n16->n97)
set q [[$ns link $n(n97) $n(n16)] queue]
$q set limit_ 51
set qm(n97->n16) [$ns makeflowmon Fid]; $qm(n97->n16) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n97) $n(n16)] $qm(n97->n16)
$ns duplex-link $n(n97) $n(n23) 100000 0.003 DropTail
set q [[$ns link $n(n97) $n(n23)] queue]
$q set limit_ 51
set qm(n97->n23) [$ns makeflowmon Fid]; $qm(n97->n23) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n97) $n(n23)] $qm(n97->n23)
set q [[$ns link $n(n23) $n(n97)] queue]
$q set limit_ 51
set qm(n23->n97) [$ns makeflowmon Fid]; $qm(n23->n97) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n23) $n(n97)] $qm(n23->n97)
$ns duplex-link $n(n23) $n(n69) 100000 0.014 DropTail
set q [[$ns link $n(n23) $n(n69)] queue]
$q set limit_ 51
set qm(n23->n69) [$ns makeflowmon Fid]; $qm(n23->n69) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n23) $n(n69)] $qm(n23->n69)
set q [[$ns link $n(n69) $n(n23)] queue]
$q set limit_ 51
set qm(n69->n23) [$ns makeflowmon Fid]; $qm(n69->n23) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n69) $n(n23)] $qm(n69->n23)
$ns duplex-link $n(n69) $n(n74) 100000 0.027 DropTail
set q [[$ns link $n(n69) $n(n74)] queue]
$q set limit_ 51
set qm(n69->n74) [$ns makeflowmon Fid]; $qm(n69->n74) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n69) $n(n74)] $qm(n69->n74)
set q [[$ns link $n(n74) $n(n69)] queue]
$q set limit_ 51
set qm(n74->n69) [$ns makeflowmon Fid]; $qm(n74->n69) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n74) $n(n69)] $qm(n74->n69)
$ns duplex-link $n(n74) $n(n95) 100000 0.02 DropTail
set q [[$ns link $n(n74) $n(n95)] queue]
$q set limit_ 51
set qm(n74->n95) [$ns makeflowmon Fid]; $qm(n74->n95) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n74) $n(n95)] $qm(n74->n95)
set q [[$ns link $n(n95) $n(n74)] queue]
$q set limit_ 51
set qm(n95->n74) [$ns makeflowmon Fid]; $qm(n95->n74) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n95) $n(n74)] $qm(n95->n74)
$ns duplex-link $n(n95) $n(n52) 100000 0.029 DropTail
set q [[$ns link $n(n95) $n(n52)] queue]
$q set limit_ 51
set qm(n95->n52) [$ns makeflowmon Fid]; $qm(n95->n52) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n95) $n(n52)] $qm(n95->n52)
set q [[$ns link $n(n52) $n(n95)] queue]
$q set limit_ 51
set qm(n52->n95) [$ns makeflowmon Fid]; $qm(n52->n95) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n52) $n(n95)] $qm(n52->n95)
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
$ns attach-agent $n(n0) $a; $ns attach-agent $n(n52) $s; $ns connect $a $s
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
  [$qm(n57->n16) get-pkts-integrator] newpoint [$ns now] [$qm(n57->n16) set pkts_]
  set snapshot($tag,n57->n16) [list [$qm(n57->n16) set bdepartures_] [$qm(n57->n16) set pdepartures_] [$qm(n57->n16) set pdrops_] [[$qm(n57->n16) get-pkts-integrator] set sum_] [$qm(n57->n16) set pkts_]]
  [$qm(n16->n57) get-pkts-integrator] newpoint [$ns now] [$qm(n16->n57) set pkts_]
  set snapshot($tag,n16->n57) [list [$qm(n16->n57) set bdepartures_] [$qm(n16->n57) set pdepartures_] [$qm(n16->n57) set pdrops_] [[$qm(n16->n57) get-pkts-integrator] set sum_] [$qm(n16->n57) set pkts_]]
  [$qm(n16->n97) get-pkts-integrator] newpoint [$ns now] [$qm(n16->n97) set pkts_]
  set snapshot($tag,n16->n97) [list [$qm(n16->n97) set bdepartures_] [$qm(n16->n97) set pdepartures_] [$qm(n16->n97) set pdrops_] [[$qm(n16->n97) get-pkts-integrator] set sum_] [$qm(n16->n97) set pkts_]]
  [$qm(n97->n16) get-pkts-integrator] newpoint [$ns now] [$qm(n97->n16) set pkts_]
  set snapshot($tag,n97->n16) [list [$qm(n97->n16) set bdepartures_] [$qm(n97->n16) set pdepartures_] [$qm(n97->n16) set pdrops_] [[$qm(n97->n16) get-pkts-integrator] set sum_] [$qm(n97->n16) set pkts_]]
  [$qm(n97->n23) get-pkts-integrator] newpoint [$ns now] [$qm(n97->n23) set pkts_]
  set snapshot($tag,n97->n23) [list [$qm(n97->n23) set bdepartures_] [$qm(n97->n23) set pdepartures_] [$qm(n97->n23) set pdrops_] [[$qm(n97->n23) get-pkts-integrator] set sum_] [$qm(n97->n23) set pkts_]]
  [$qm(n23->n97) get-pkts-integrator] newpoint [$ns now] [$qm(n23->n97) set pkts_]
  set snapshot($tag,n23->n97) [list [$qm(n23->n97) set bdepartures_] [$qm(n23->n97) set pdepartures_] [$qm(n23->n97) set pdrops_] [[$qm(n23->n97) get-pkts-integrator] set sum_] [$qm(n23->n97) set pkts_]]
  [$qm(n23->n69) get-pkts-integrator] newpoint [$ns now] [$qm(n23->n69) set pkts_]
  set snapshot($tag,n23->n69) [list [$qm(n23->n69) set bdepartures_] [$qm(n23->n69) set pdepartures_] [$qm(n23->n69) set pdrops_] [[$qm(n23->n69) get-pkts-integrator] set sum_] [$qm(n23->n69) set pkts_]]
  [$qm(n69->n23) get-pkts-integrator] newpoint [$ns now] [$qm(n69->n23) set pkts_]
  set snapshot($tag,n69->n23) [list [$qm(n69->n23) set bdepartures_] [$qm(n69->n23) set pdepartures_] [$qm(n69->n23) set pdrops_] [[$qm(n69->n23) get-pkts-integrator] set sum_] [$qm(n69->n23) set pkts_]]
  [$qm(n69->n74) get-pkts-integrator] newpoint [$ns now] [$qm(n69->n74) set pkts_]
  set snapshot($tag,n69->n74) [list [$qm(n69->n74) set bdepartures_] [$qm(n69->n74) set pdepartures_] [$qm(n69->n74) set pdrops_] [[$qm(n69->n74) get-pkts-integrator] set sum_] [$qm(n69->n74) set pkts_]]
  [$qm(n74->n69) get-pkts-integrator] newpoint [$ns now] [$qm(n74->n69) set pkts_]
  set snapshot($tag,n74->n69) [list [$qm(n74->n69) set bdepartures_] [$qm(n74->n69) set pdepartures_] [$qm(n74->n69) set pdrops_] [[$qm(n74->n69) get-pkts-integrator] set sum_] [$qm(n74->n69) set pkts_]]
  [$qm(n74->n95) get-pkts-integrator] newpoint [$ns now] [$qm(n74->n95) set pkts_]
  set snapshot($tag,n74->n95) [list [$qm(n74->n95) set bdepartures_] [$qm(n74->n95) set pdepartures_] [$qm(n74->n95) set pdrops_] [[$qm(n74->n95) get-pkts-integrator] set sum_] [$qm(n74->n95) set pkts_]]
  [$qm(n95->n74) get-pkts-integrator] newpoint [$ns now] [$qm(n95->n74) set pkts_]
  set snapshot($tag,n95->n74) [list [$qm(n95->n74) set bdepartures_] [$qm(n95->n74) set pdepartures_] [$qm(n95->n74) set pdrops_] [[$qm(n95->n74) get-pkts-integrator] set sum_] [$qm(n95->n74) set pkts_]]
  [$qm(n95->n52) get-pkts-integrator] newpoint [$ns now] [$qm(n95->n52) set pkts_]
  set snapshot($tag,n95->n52) [list [$qm(n95->n52) set bdepartures_] [$qm(n95->n52) set pdepartures_] [$qm(n95->n52) set pdrops_] [[$qm(n95->n52) get-pkts-integrator] set sum_] [$qm(n95->n52) set pkts_]]
  [$qm(n52->n95) get-pkts-integrator] newpoint [$ns now] [$qm(n52->n95) set pkts_]
  set snapshot($tag,n52->n95) [list [$qm(n52->n95) set bdepartures_] [$qm(n52->n95) set pdepartures_] [$qm(n52->n95) set pdrops_] [[$qm(n52->n95) get-pkts-integrator] set sum_] [$qm(n52->n95) set pkts_]]
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
  set b $snapshot(warm,n57->n16); set e $snapshot(end,n57->n16)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n57->n16\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (100000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n16->n57); set e $snapshot(end,n16->n57)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n16->n57\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (100000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n16->n97); set e $snapshot(end,n16->n97)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n16->n97\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (100000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n97->n16); set e $snapshot(end,n97->n16)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n97->n16\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (100000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n97->n23); set e $snapshot(end,n97->n23)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n97->n23\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (100000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n23->n97); set e $snapshot(end,n23->n97)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n23->n97\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (100000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n23->n69); set e $snapshot(end,n23->n69)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n23->n69\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (100000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n69->n23); set e $snapshot(end,n69->n23)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n69->n23\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (100000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n69->n74); set e $snapshot(end,n69->n74)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n69->n74\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (100000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n74->n69); set e $snapshot(end,n74->n69)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n74->n69\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (100000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n74->n95); set e $snapshot(end,n74->n95)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n74->n95\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (100000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n95->n74); set e $snapshot(end,n95->n74)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n95->n74\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (100000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n95->n52); set e $snapshot(end,n95->n52)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n95->n52\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (100000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n52->n95); set e $snapshot(end,n52->n95)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n52->n95\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (100000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  puts "CCSIM-NS2-RESULT {[join $parts {, }]}"
  exit 0
}
$ns at 0 "snap warm"
$ns at 60 "finish"
$ns at 0.1 "sample"
set qtrace [open {n52-alone-1998.tr} w]
$ns trace-queue $n(n0) $n(n90) $qtrace
$ns trace-queue $n(n90) $n(n0) $qtrace
$ns run

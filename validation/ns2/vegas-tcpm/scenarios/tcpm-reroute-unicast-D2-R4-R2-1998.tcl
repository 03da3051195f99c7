set ns [new Simulator]
$ns rtproto Session
set n(S) [$ns node]
set n(R1) [$ns node]
set n(D1) [$ns node]
set n(R2) [$ns node]
set n(R4) [$ns node]
set n(D2) [$ns node]
set n(D3) [$ns node]
set n(R3) [$ns node]
set n(D4) [$ns node]
set n(D5) [$ns node]
$ns duplex-link $n(S) $n(R1) 10000000 0.002 DropTail
$ns queue-limit $n(S) $n(R1) 51; $ns queue-limit $n(R1) $n(S) 51
$ns cost $n(S) $n(R1) 2; $ns cost $n(R1) $n(S) 2
$ns duplex-link $n(R1) $n(D1) 10000000 0.005 DropTail
$ns queue-limit $n(R1) $n(D1) 51; $ns queue-limit $n(D1) $n(R1) 51
$ns cost $n(R1) $n(D1) 5; $ns cost $n(D1) $n(R1) 5
$ns duplex-link $n(R1) $n(R2) 10000000 0.005 DropTail
$ns queue-limit $n(R1) $n(R2) 51; $ns queue-limit $n(R2) $n(R1) 51
$ns cost $n(R1) $n(R2) 5; $ns cost $n(R2) $n(R1) 5
$ns duplex-link $n(R2) $n(R4) 10000000 0.005 DropTail
$ns queue-limit $n(R2) $n(R4) 51; $ns queue-limit $n(R4) $n(R2) 51
$ns cost $n(R2) $n(R4) 5; $ns cost $n(R4) $n(R2) 5
$ns duplex-link $n(R4) $n(D2) 10000000 0.005 DropTail
$ns queue-limit $n(R4) $n(D2) 51; $ns queue-limit $n(D2) $n(R4) 51
$ns cost $n(R4) $n(D2) 5; $ns cost $n(D2) $n(R4) 5
$ns duplex-link $n(R4) $n(D3) 10000000 0.005 DropTail
$ns queue-limit $n(R4) $n(D3) 51; $ns queue-limit $n(D3) $n(R4) 51
$ns cost $n(R4) $n(D3) 5; $ns cost $n(D3) $n(R4) 5
$ns duplex-link $n(R1) $n(R3) 10000000 0.005 DropTail
$ns queue-limit $n(R1) $n(R3) 51; $ns queue-limit $n(R3) $n(R1) 51
$ns cost $n(R1) $n(R3) 5; $ns cost $n(R3) $n(R1) 5
$ns duplex-link $n(R3) $n(D4) 2000000 0.01 DropTail
$ns queue-limit $n(R3) $n(D4) 51; $ns queue-limit $n(D4) $n(R3) 51
$ns cost $n(R3) $n(D4) 10; $ns cost $n(D4) $n(R3) 10
$ns duplex-link $n(R3) $n(D5) 3000000 0.01 DropTail
$ns queue-limit $n(R3) $n(D5) 51; $ns queue-limit $n(D5) $n(R3) 51
$ns cost $n(R3) $n(D5) 10; $ns cost $n(D5) $n(R3) 10
$ns duplex-link $n(D4) $n(R4) 1000000 0.02 DropTail
$ns queue-limit $n(D4) $n(R4) 51; $ns queue-limit $n(R4) $n(D4) 51
$ns cost $n(D4) $n(R4) 20; $ns cost $n(R4) $n(D4) 20
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
$a set v_alpha_ 1
$a set v_beta_ 3
$a set v_gamma_ 1
$a set fid_ 0
set s [new Agent/TCPSink]
$ns attach-agent $n(S) $a; $ns attach-agent $n(D2) $s; $ns connect $a $s
set ftp [new Application/FTP]; $ftp attach-agent $a
$ns at 0 "$ftp start"
set tf [open vegas.ns2trace w]
$a attach $tf; $a trace cwnd_; $a trace ssthresh_
set qtrace [open q.tr w]
$ns trace-queue $n(S) $n(R1) $qtrace; $ns trace-queue $n(R1) $n(S) $qtrace
[$ns link $n(R4) $n(R2)] dynamic
$ns at 2 "[$ns link $n(R4) $n(R2)] down; $n(R4) intf-changed; $n(R2) intf-changed; [$ns get-routelogic] notify"
set last 0; set lastt 0
proc sample {} {
  global ns s last lastt
  set now [$ns now]; set b [$s set bytes_]
  puts "CCSIM-NS2-SAMPLE $now rate vegas [expr {($b - $last) * 8.0 * 960 / 1000 / ($now - $lastt)}]"
  set last $b; set lastt $now
  if {$now < 7.999999999} { $ns at [expr {$now + 0.1}] "sample" }
}
proc finish {} {
  global a s
  puts "CCSIM-NS2-RESULT {\"flow:vegas\": {\"timeouts\": [$a set nrexmit_], \"retransmitted_packets\": [$a set nrexmitpack_], \"sent_packets\": [$a set ndatapack_], \"bytes\": [$s set bytes_]}}"
  exit 0
}
$ns at 0.1 "sample"
$ns at 8.000001 "finish"
$ns run

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
$a set tcpTick_ 0.01
$a set rtxcur_init_ 3
$a set minrto_ 0.2
$a set syn_ false
$a set delay_growth_ false
$a set singledup_ 0
$a set v_alpha_ 1.0
$a set v_beta_ 3.0
$a set v_gamma_ 1.0
$a set fid_ 0
set s [new Agent/TCPSink]; $s set fid_ 94
$ns attach-agent $n(n0) $a; $ns attach-agent $n(n89) $s; $ns connect $a $s
set agent(vegas) $a; set sink(vegas) $s
set app(vegas) [new Application/FTP]; $app(vegas) attach-agent $a
$ns at 2.4596 "$app(vegas) start"
set tf(vegas) [open {./vegas.ns2trace} w]
$a attach $tf(vegas); $a trace cwnd_; $a trace ssthresh_; $a trace srtt_; $a trace rttvar_; $a trace backoff_
set a [new Agent/UDP]
$a set fid_ 1; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n90) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n90) [new Application/Traffic/CBR]
$app(rp-n90) set packetSize_ 40; $app(rp-n90) set rate_ 320
$app(rp-n90) set random_ 0
$app(rp-n90) attach-agent $a
set agent(rp-n90) $a; set sink(rp-n90) $s
$ns at 1.7198 "$app(rp-n90) start"
set a [new Agent/UDP]
$a set fid_ 2; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n90) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n4) [new Application/Traffic/CBR]
$app(rp-n4) set packetSize_ 40; $app(rp-n4) set rate_ 320
$app(rp-n4) set random_ 0
$app(rp-n4) attach-agent $a
set agent(rp-n4) $a; set sink(rp-n4) $s
$ns at 1.7562 "$app(rp-n4) start"
set a [new Agent/UDP]
$a set fid_ 3; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n28) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n28) [new Application/Traffic/CBR]
$app(rp-n28) set packetSize_ 40; $app(rp-n28) set rate_ 320
$app(rp-n28) set random_ 0
$app(rp-n28) attach-agent $a
set agent(rp-n28) $a; set sink(rp-n28) $s
$ns at 1.758 "$app(rp-n28) start"
set a [new Agent/UDP]
$a set fid_ 4; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n57) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n57) [new Application/Traffic/CBR]
$app(rp-n57) set packetSize_ 40; $app(rp-n57) set rate_ 320
$app(rp-n57) set random_ 0
$app(rp-n57) attach-agent $a
set agent(rp-n57) $a; set sink(rp-n57) $s
$ns at 1.7752 "$app(rp-n57) start"
set a [new Agent/UDP]
$a set fid_ 5; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n68) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n68) [new Application/Traffic/CBR]
$app(rp-n68) set packetSize_ 40; $app(rp-n68) set rate_ 320
$app(rp-n68) set random_ 0
$app(rp-n68) attach-agent $a
set agent(rp-n68) $a; set sink(rp-n68) $s
$ns at 1.7794 "$app(rp-n68) start"
set a [new Agent/UDP]
$a set fid_ 6; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n57) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n16) [new Application/Traffic/CBR]
$app(rp-n16) set packetSize_ 40; $app(rp-n16) set rate_ 320
$app(rp-n16) set random_ 0
$app(rp-n16) attach-agent $a
set agent(rp-n16) $a; set sink(rp-n16) $s
$ns at 1.7996 "$app(rp-n16) start"
set a [new Agent/UDP]
$a set fid_ 7; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n90) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n61) [new Application/Traffic/CBR]
$app(rp-n61) set packetSize_ 40; $app(rp-n61) set rate_ 320
$app(rp-n61) set random_ 0
$app(rp-n61) attach-agent $a
set agent(rp-n61) $a; set sink(rp-n61) $s
$ns at 1.8006 "$app(rp-n61) start"
set a [new Agent/UDP]
$a set fid_ 8; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n12) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n12) [new Application/Traffic/CBR]
$app(rp-n12) set packetSize_ 40; $app(rp-n12) set rate_ 320
$app(rp-n12) set random_ 0
$app(rp-n12) attach-agent $a
set agent(rp-n12) $a; set sink(rp-n12) $s
$ns at 1.8046 "$app(rp-n12) start"
set a [new Agent/UDP]
$a set fid_ 9; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n57) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n97) [new Application/Traffic/CBR]
$app(rp-n97) set packetSize_ 40; $app(rp-n97) set rate_ 320
$app(rp-n97) set random_ 0
$app(rp-n97) attach-agent $a
set agent(rp-n97) $a; set sink(rp-n97) $s
$ns at 1.818 "$app(rp-n97) start"
set a [new Agent/UDP]
$a set fid_ 10; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n18) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n18) [new Application/Traffic/CBR]
$app(rp-n18) set packetSize_ 40; $app(rp-n18) set rate_ 320
$app(rp-n18) set random_ 0
$app(rp-n18) attach-agent $a
set agent(rp-n18) $a; set sink(rp-n18) $s
$ns at 1.8258 "$app(rp-n18) start"
set a [new Agent/UDP]
$a set fid_ 11; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n28) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n1) [new Application/Traffic/CBR]
$app(rp-n1) set packetSize_ 40; $app(rp-n1) set rate_ 320
$app(rp-n1) set random_ 0
$app(rp-n1) attach-agent $a
set agent(rp-n1) $a; set sink(rp-n1) $s
$ns at 1.8264 "$app(rp-n1) start"
set a [new Agent/UDP]
$a set fid_ 12; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n57) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n19) [new Application/Traffic/CBR]
$app(rp-n19) set packetSize_ 40; $app(rp-n19) set rate_ 320
$app(rp-n19) set random_ 0
$app(rp-n19) attach-agent $a
set agent(rp-n19) $a; set sink(rp-n19) $s
$ns at 1.8276 "$app(rp-n19) start"
set a [new Agent/UDP]
$a set fid_ 13; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n57) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n23) [new Application/Traffic/CBR]
$app(rp-n23) set packetSize_ 40; $app(rp-n23) set rate_ 320
$app(rp-n23) set random_ 0
$app(rp-n23) attach-agent $a
set agent(rp-n23) $a; set sink(rp-n23) $s
$ns at 1.8304 "$app(rp-n23) start"
set a [new Agent/UDP]
$a set fid_ 14; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n28) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n79) [new Application/Traffic/CBR]
$app(rp-n79) set packetSize_ 40; $app(rp-n79) set rate_ 320
$app(rp-n79) set random_ 0
$app(rp-n79) attach-agent $a
set agent(rp-n79) $a; set sink(rp-n79) $s
$ns at 1.8344 "$app(rp-n79) start"
set a [new Agent/UDP]
$a set fid_ 15; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n57) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n80) [new Application/Traffic/CBR]
$app(rp-n80) set packetSize_ 40; $app(rp-n80) set rate_ 320
$app(rp-n80) set random_ 0
$app(rp-n80) attach-agent $a
set agent(rp-n80) $a; set sink(rp-n80) $s
$ns at 1.8396 "$app(rp-n80) start"
set a [new Agent/UDP]
$a set fid_ 16; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n57) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n36) [new Application/Traffic/CBR]
$app(rp-n36) set packetSize_ 40; $app(rp-n36) set rate_ 320
$app(rp-n36) set random_ 0
$app(rp-n36) attach-agent $a
set agent(rp-n36) $a; set sink(rp-n36) $s
$ns at 1.848 "$app(rp-n36) start"
set a [new Agent/UDP]
$a set fid_ 17; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n86) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n86) [new Application/Traffic/CBR]
$app(rp-n86) set packetSize_ 40; $app(rp-n86) set rate_ 320
$app(rp-n86) set random_ 0
$app(rp-n86) attach-agent $a
set agent(rp-n86) $a; set sink(rp-n86) $s
$ns at 1.857 "$app(rp-n86) start"
set a [new Agent/UDP]
$a set fid_ 18; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n28) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n5) [new Application/Traffic/CBR]
$app(rp-n5) set packetSize_ 40; $app(rp-n5) set rate_ 320
$app(rp-n5) set random_ 0
$app(rp-n5) attach-agent $a
set agent(rp-n5) $a; set sink(rp-n5) $s
$ns at 1.8588 "$app(rp-n5) start"
set a [new Agent/UDP]
$a set fid_ 19; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n57) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n69) [new Application/Traffic/CBR]
$app(rp-n69) set packetSize_ 40; $app(rp-n69) set rate_ 320
$app(rp-n69) set random_ 0
$app(rp-n69) attach-agent $a
set agent(rp-n69) $a; set sink(rp-n69) $s
$ns at 1.8648 "$app(rp-n69) start"
set a [new Agent/UDP]
$a set fid_ 20; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n90) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n3) [new Application/Traffic/CBR]
$app(rp-n3) set packetSize_ 40; $app(rp-n3) set rate_ 320
$app(rp-n3) set random_ 0
$app(rp-n3) attach-agent $a
set agent(rp-n3) $a; set sink(rp-n3) $s
$ns at 1.875 "$app(rp-n3) start"
set a [new Agent/UDP]
$a set fid_ 21; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n90) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n65) [new Application/Traffic/CBR]
$app(rp-n65) set packetSize_ 40; $app(rp-n65) set rate_ 320
$app(rp-n65) set random_ 0
$app(rp-n65) attach-agent $a
set agent(rp-n65) $a; set sink(rp-n65) $s
$ns at 1.8782 "$app(rp-n65) start"
set a [new Agent/UDP]
$a set fid_ 22; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n28) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n17) [new Application/Traffic/CBR]
$app(rp-n17) set packetSize_ 40; $app(rp-n17) set rate_ 320
$app(rp-n17) set random_ 0
$app(rp-n17) attach-agent $a
set agent(rp-n17) $a; set sink(rp-n17) $s
$ns at 1.8788 "$app(rp-n17) start"
set a [new Agent/UDP]
$a set fid_ 23; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n28) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n76) [new Application/Traffic/CBR]
$app(rp-n76) set packetSize_ 40; $app(rp-n76) set rate_ 320
$app(rp-n76) set random_ 0
$app(rp-n76) attach-agent $a
set agent(rp-n76) $a; set sink(rp-n76) $s
$ns at 1.882 "$app(rp-n76) start"
set a [new Agent/UDP]
$a set fid_ 24; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n90) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n6) [new Application/Traffic/CBR]
$app(rp-n6) set packetSize_ 40; $app(rp-n6) set rate_ 320
$app(rp-n6) set random_ 0
$app(rp-n6) attach-agent $a
set agent(rp-n6) $a; set sink(rp-n6) $s
$ns at 1.885 "$app(rp-n6) start"
set a [new Agent/UDP]
$a set fid_ 25; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n57) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n14) [new Application/Traffic/CBR]
$app(rp-n14) set packetSize_ 40; $app(rp-n14) set rate_ 320
$app(rp-n14) set random_ 0
$app(rp-n14) attach-agent $a
set agent(rp-n14) $a; set sink(rp-n14) $s
$ns at 1.886 "$app(rp-n14) start"
set a [new Agent/UDP]
$a set fid_ 26; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n12) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n37) [new Application/Traffic/CBR]
$app(rp-n37) set packetSize_ 40; $app(rp-n37) set rate_ 320
$app(rp-n37) set random_ 0
$app(rp-n37) attach-agent $a
set agent(rp-n37) $a; set sink(rp-n37) $s
$ns at 1.887 "$app(rp-n37) start"
set a [new Agent/UDP]
$a set fid_ 27; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n28) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n2) [new Application/Traffic/CBR]
$app(rp-n2) set packetSize_ 40; $app(rp-n2) set rate_ 320
$app(rp-n2) set random_ 0
$app(rp-n2) attach-agent $a
set agent(rp-n2) $a; set sink(rp-n2) $s
$ns at 1.8872 "$app(rp-n2) start"
set a [new Agent/UDP]
$a set fid_ 28; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n90) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n42) [new Application/Traffic/CBR]
$app(rp-n42) set packetSize_ 40; $app(rp-n42) set rate_ 320
$app(rp-n42) set random_ 0
$app(rp-n42) attach-agent $a
set agent(rp-n42) $a; set sink(rp-n42) $s
$ns at 1.8882 "$app(rp-n42) start"
set a [new Agent/UDP]
$a set fid_ 29; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n57) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n10) [new Application/Traffic/CBR]
$app(rp-n10) set packetSize_ 40; $app(rp-n10) set rate_ 320
$app(rp-n10) set random_ 0
$app(rp-n10) attach-agent $a
set agent(rp-n10) $a; set sink(rp-n10) $s
$ns at 1.8904 "$app(rp-n10) start"
set a [new Agent/UDP]
$a set fid_ 30; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n28) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n81) [new Application/Traffic/CBR]
$app(rp-n81) set packetSize_ 40; $app(rp-n81) set rate_ 320
$app(rp-n81) set random_ 0
$app(rp-n81) attach-agent $a
set agent(rp-n81) $a; set sink(rp-n81) $s
$ns at 1.8988 "$app(rp-n81) start"
set a [new Agent/UDP]
$a set fid_ 31; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n89) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n89) [new Application/Traffic/CBR]
$app(rp-n89) set packetSize_ 40; $app(rp-n89) set rate_ 320
$app(rp-n89) set random_ 0
$app(rp-n89) attach-agent $a
set agent(rp-n89) $a; set sink(rp-n89) $s
$ns at 1.9032 "$app(rp-n89) start"
set a [new Agent/UDP]
$a set fid_ 32; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n90) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n92) [new Application/Traffic/CBR]
$app(rp-n92) set packetSize_ 40; $app(rp-n92) set rate_ 320
$app(rp-n92) set random_ 0
$app(rp-n92) attach-agent $a
set agent(rp-n92) $a; set sink(rp-n92) $s
$ns at 1.9054 "$app(rp-n92) start"
set a [new Agent/UDP]
$a set fid_ 33; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n28) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n58) [new Application/Traffic/CBR]
$app(rp-n58) set packetSize_ 40; $app(rp-n58) set rate_ 320
$app(rp-n58) set random_ 0
$app(rp-n58) attach-agent $a
set agent(rp-n58) $a; set sink(rp-n58) $s
$ns at 1.9076 "$app(rp-n58) start"
set a [new Agent/UDP]
$a set fid_ 34; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n57) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n84) [new Application/Traffic/CBR]
$app(rp-n84) set packetSize_ 40; $app(rp-n84) set rate_ 320
$app(rp-n84) set random_ 0
$app(rp-n84) attach-agent $a
set agent(rp-n84) $a; set sink(rp-n84) $s
$ns at 1.9104 "$app(rp-n84) start"
set a [new Agent/UDP]
$a set fid_ 35; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n28) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n99) [new Application/Traffic/CBR]
$app(rp-n99) set packetSize_ 40; $app(rp-n99) set rate_ 320
$app(rp-n99) set random_ 0
$app(rp-n99) attach-agent $a
set agent(rp-n99) $a; set sink(rp-n99) $s
$ns at 1.9108 "$app(rp-n99) start"
set a [new Agent/UDP]
$a set fid_ 36; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n90) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n15) [new Application/Traffic/CBR]
$app(rp-n15) set packetSize_ 40; $app(rp-n15) set rate_ 320
$app(rp-n15) set random_ 0
$app(rp-n15) attach-agent $a
set agent(rp-n15) $a; set sink(rp-n15) $s
$ns at 1.9138 "$app(rp-n15) start"
set a [new Agent/UDP]
$a set fid_ 37; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n28) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n46) [new Application/Traffic/CBR]
$app(rp-n46) set packetSize_ 40; $app(rp-n46) set rate_ 320
$app(rp-n46) set random_ 0
$app(rp-n46) attach-agent $a
set agent(rp-n46) $a; set sink(rp-n46) $s
$ns at 1.914 "$app(rp-n46) start"
set a [new Agent/UDP]
$a set fid_ 38; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n28) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n29) [new Application/Traffic/CBR]
$app(rp-n29) set packetSize_ 40; $app(rp-n29) set rate_ 320
$app(rp-n29) set random_ 0
$app(rp-n29) attach-agent $a
set agent(rp-n29) $a; set sink(rp-n29) $s
$ns at 1.9172 "$app(rp-n29) start"
set a [new Agent/UDP]
$a set fid_ 39; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n90) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n88) [new Application/Traffic/CBR]
$app(rp-n88) set packetSize_ 40; $app(rp-n88) set rate_ 320
$app(rp-n88) set random_ 0
$app(rp-n88) attach-agent $a
set agent(rp-n88) $a; set sink(rp-n88) $s
$ns at 1.9174 "$app(rp-n88) start"
set a [new Agent/UDP]
$a set fid_ 40; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n57) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n13) [new Application/Traffic/CBR]
$app(rp-n13) set packetSize_ 40; $app(rp-n13) set rate_ 320
$app(rp-n13) set random_ 0
$app(rp-n13) attach-agent $a
set agent(rp-n13) $a; set sink(rp-n13) $s
$ns at 1.9188 "$app(rp-n13) start"
set a [new Agent/UDP]
$a set fid_ 41; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n28) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n67) [new Application/Traffic/CBR]
$app(rp-n67) set packetSize_ 40; $app(rp-n67) set rate_ 320
$app(rp-n67) set random_ 0
$app(rp-n67) attach-agent $a
set agent(rp-n67) $a; set sink(rp-n67) $s
$ns at 1.9204 "$app(rp-n67) start"
set a [new Agent/UDP]
$a set fid_ 42; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n28) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n27) [new Application/Traffic/CBR]
$app(rp-n27) set packetSize_ 40; $app(rp-n27) set rate_ 320
$app(rp-n27) set random_ 0
$app(rp-n27) attach-agent $a
set agent(rp-n27) $a; set sink(rp-n27) $s
$ns at 1.9236 "$app(rp-n27) start"
set a [new Agent/UDP]
$a set fid_ 43; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n57) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n74) [new Application/Traffic/CBR]
$app(rp-n74) set packetSize_ 40; $app(rp-n74) set rate_ 320
$app(rp-n74) set random_ 0
$app(rp-n74) attach-agent $a
set agent(rp-n74) $a; set sink(rp-n74) $s
$ns at 1.9252 "$app(rp-n74) start"
set a [new Agent/UDP]
$a set fid_ 44; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n28) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n38) [new Application/Traffic/CBR]
$app(rp-n38) set packetSize_ 40; $app(rp-n38) set rate_ 320
$app(rp-n38) set random_ 0
$app(rp-n38) attach-agent $a
set agent(rp-n38) $a; set sink(rp-n38) $s
$ns at 1.9268 "$app(rp-n38) start"
set a [new Agent/UDP]
$a set fid_ 45; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n90) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n55) [new Application/Traffic/CBR]
$app(rp-n55) set packetSize_ 40; $app(rp-n55) set rate_ 320
$app(rp-n55) set random_ 0
$app(rp-n55) attach-agent $a
set agent(rp-n55) $a; set sink(rp-n55) $s
$ns at 1.9274 "$app(rp-n55) start"
set a [new Agent/UDP]
$a set fid_ 46; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n57) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n78) [new Application/Traffic/CBR]
$app(rp-n78) set packetSize_ 40; $app(rp-n78) set rate_ 320
$app(rp-n78) set random_ 0
$app(rp-n78) attach-agent $a
set agent(rp-n78) $a; set sink(rp-n78) $s
$ns at 1.9288 "$app(rp-n78) start"
set a [new Agent/UDP]
$a set fid_ 47; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n28) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n44) [new Application/Traffic/CBR]
$app(rp-n44) set packetSize_ 40; $app(rp-n44) set rate_ 320
$app(rp-n44) set random_ 0
$app(rp-n44) attach-agent $a
set agent(rp-n44) $a; set sink(rp-n44) $s
$ns at 1.93 "$app(rp-n44) start"
set a [new Agent/UDP]
$a set fid_ 48; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n90) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n64) [new Application/Traffic/CBR]
$app(rp-n64) set packetSize_ 40; $app(rp-n64) set rate_ 320
$app(rp-n64) set random_ 0
$app(rp-n64) attach-agent $a
set agent(rp-n64) $a; set sink(rp-n64) $s
$ns at 1.9306 "$app(rp-n64) start"
set a [new Agent/UDP]
$a set fid_ 49; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n57) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n49) [new Application/Traffic/CBR]
$app(rp-n49) set packetSize_ 40; $app(rp-n49) set rate_ 320
$app(rp-n49) set random_ 0
$app(rp-n49) attach-agent $a
set agent(rp-n49) $a; set sink(rp-n49) $s
$ns at 1.932 "$app(rp-n49) start"
set a [new Agent/UDP]
$a set fid_ 50; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n28) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n8) [new Application/Traffic/CBR]
$app(rp-n8) set packetSize_ 40; $app(rp-n8) set rate_ 320
$app(rp-n8) set random_ 0
$app(rp-n8) attach-agent $a
set agent(rp-n8) $a; set sink(rp-n8) $s
$ns at 1.9332 "$app(rp-n8) start"
set a [new Agent/UDP]
$a set fid_ 51; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n90) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n39) [new Application/Traffic/CBR]
$app(rp-n39) set packetSize_ 40; $app(rp-n39) set rate_ 320
$app(rp-n39) set random_ 0
$app(rp-n39) attach-agent $a
set agent(rp-n39) $a; set sink(rp-n39) $s
$ns at 1.9338 "$app(rp-n39) start"
set a [new Agent/UDP]
$a set fid_ 52; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n57) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n56) [new Application/Traffic/CBR]
$app(rp-n56) set packetSize_ 40; $app(rp-n56) set rate_ 320
$app(rp-n56) set random_ 0
$app(rp-n56) attach-agent $a
set agent(rp-n56) $a; set sink(rp-n56) $s
$ns at 1.9352 "$app(rp-n56) start"
set a [new Agent/UDP]
$a set fid_ 53; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n28) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n20) [new Application/Traffic/CBR]
$app(rp-n20) set packetSize_ 40; $app(rp-n20) set rate_ 320
$app(rp-n20) set random_ 0
$app(rp-n20) attach-agent $a
set agent(rp-n20) $a; set sink(rp-n20) $s
$ns at 1.9364 "$app(rp-n20) start"
set a [new Agent/UDP]
$a set fid_ 54; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n57) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n73) [new Application/Traffic/CBR]
$app(rp-n73) set packetSize_ 40; $app(rp-n73) set rate_ 320
$app(rp-n73) set random_ 0
$app(rp-n73) attach-agent $a
set agent(rp-n73) $a; set sink(rp-n73) $s
$ns at 1.9412 "$app(rp-n73) start"
set a [new Agent/UDP]
$a set fid_ 55; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n28) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n75) [new Application/Traffic/CBR]
$app(rp-n75) set packetSize_ 40; $app(rp-n75) set rate_ 320
$app(rp-n75) set random_ 0
$app(rp-n75) attach-agent $a
set agent(rp-n75) $a; set sink(rp-n75) $s
$ns at 1.9432 "$app(rp-n75) start"
set a [new Agent/UDP]
$a set fid_ 56; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n12) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n93) [new Application/Traffic/CBR]
$app(rp-n93) set packetSize_ 40; $app(rp-n93) set rate_ 320
$app(rp-n93) set random_ 0
$app(rp-n93) attach-agent $a
set agent(rp-n93) $a; set sink(rp-n93) $s
$ns at 1.9434 "$app(rp-n93) start"
set a [new Agent/UDP]
$a set fid_ 57; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n57) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n82) [new Application/Traffic/CBR]
$app(rp-n82) set packetSize_ 40; $app(rp-n82) set rate_ 320
$app(rp-n82) set random_ 0
$app(rp-n82) attach-agent $a
set agent(rp-n82) $a; set sink(rp-n82) $s
$ns at 1.9444 "$app(rp-n82) start"
set a [new Agent/UDP]
$a set fid_ 58; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n28) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n21) [new Application/Traffic/CBR]
$app(rp-n21) set packetSize_ 40; $app(rp-n21) set rate_ 320
$app(rp-n21) set random_ 0
$app(rp-n21) attach-agent $a
set agent(rp-n21) $a; set sink(rp-n21) $s
$ns at 1.9464 "$app(rp-n21) start"
set a [new Agent/UDP]
$a set fid_ 59; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n90) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n24) [new Application/Traffic/CBR]
$app(rp-n24) set packetSize_ 40; $app(rp-n24) set rate_ 320
$app(rp-n24) set random_ 0
$app(rp-n24) attach-agent $a
set agent(rp-n24) $a; set sink(rp-n24) $s
$ns at 1.9482 "$app(rp-n24) start"
set a [new Agent/UDP]
$a set fid_ 60; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n57) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n60) [new Application/Traffic/CBR]
$app(rp-n60) set packetSize_ 40; $app(rp-n60) set rate_ 320
$app(rp-n60) set random_ 0
$app(rp-n60) attach-agent $a
set agent(rp-n60) $a; set sink(rp-n60) $s
$ns at 1.9484 "$app(rp-n60) start"
set a [new Agent/UDP]
$a set fid_ 61; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n28) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n25) [new Application/Traffic/CBR]
$app(rp-n25) set packetSize_ 40; $app(rp-n25) set rate_ 320
$app(rp-n25) set random_ 0
$app(rp-n25) attach-agent $a
set agent(rp-n25) $a; set sink(rp-n25) $s
$ns at 1.9496 "$app(rp-n25) start"
set a [new Agent/UDP]
$a set fid_ 62; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n57) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n98) [new Application/Traffic/CBR]
$app(rp-n98) set packetSize_ 40; $app(rp-n98) set rate_ 320
$app(rp-n98) set random_ 0
$app(rp-n98) attach-agent $a
set agent(rp-n98) $a; set sink(rp-n98) $s
$ns at 1.9516 "$app(rp-n98) start"
set a [new Agent/UDP]
$a set fid_ 63; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n28) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n33) [new Application/Traffic/CBR]
$app(rp-n33) set packetSize_ 40; $app(rp-n33) set rate_ 320
$app(rp-n33) set random_ 0
$app(rp-n33) attach-agent $a
set agent(rp-n33) $a; set sink(rp-n33) $s
$ns at 1.9552 "$app(rp-n33) start"
set a [new Agent/UDP]
$a set fid_ 64; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n28) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n94) [new Application/Traffic/CBR]
$app(rp-n94) set packetSize_ 40; $app(rp-n94) set rate_ 320
$app(rp-n94) set random_ 0
$app(rp-n94) attach-agent $a
set agent(rp-n94) $a; set sink(rp-n94) $s
$ns at 1.9584 "$app(rp-n94) start"
set a [new Agent/UDP]
$a set fid_ 65; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n28) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n50) [new Application/Traffic/CBR]
$app(rp-n50) set packetSize_ 40; $app(rp-n50) set rate_ 320
$app(rp-n50) set random_ 0
$app(rp-n50) attach-agent $a
set agent(rp-n50) $a; set sink(rp-n50) $s
$ns at 1.962 "$app(rp-n50) start"
set a [new Agent/UDP]
$a set fid_ 66; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n90) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n87) [new Application/Traffic/CBR]
$app(rp-n87) set packetSize_ 40; $app(rp-n87) set rate_ 320
$app(rp-n87) set random_ 0
$app(rp-n87) attach-agent $a
set agent(rp-n87) $a; set sink(rp-n87) $s
$ns at 1.9634 "$app(rp-n87) start"
set a [new Agent/UDP]
$a set fid_ 67; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n57) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n72) [new Application/Traffic/CBR]
$app(rp-n72) set packetSize_ 40; $app(rp-n72) set rate_ 320
$app(rp-n72) set random_ 0
$app(rp-n72) attach-agent $a
set agent(rp-n72) $a; set sink(rp-n72) $s
$ns at 1.9656 "$app(rp-n72) start"
set a [new Agent/UDP]
$a set fid_ 68; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n90) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n34) [new Application/Traffic/CBR]
$app(rp-n34) set packetSize_ 40; $app(rp-n34) set rate_ 320
$app(rp-n34) set random_ 0
$app(rp-n34) attach-agent $a
set agent(rp-n34) $a; set sink(rp-n34) $s
$ns at 1.9666 "$app(rp-n34) start"
set a [new Agent/UDP]
$a set fid_ 69; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n28) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n22) [new Application/Traffic/CBR]
$app(rp-n22) set packetSize_ 40; $app(rp-n22) set rate_ 320
$app(rp-n22) set random_ 0
$app(rp-n22) attach-agent $a
set agent(rp-n22) $a; set sink(rp-n22) $s
$ns at 1.9672 "$app(rp-n22) start"
set a [new Agent/UDP]
$a set fid_ 70; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n57) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n47) [new Application/Traffic/CBR]
$app(rp-n47) set packetSize_ 40; $app(rp-n47) set rate_ 320
$app(rp-n47) set random_ 0
$app(rp-n47) attach-agent $a
set agent(rp-n47) $a; set sink(rp-n47) $s
$ns at 1.9688 "$app(rp-n47) start"
set a [new Agent/UDP]
$a set fid_ 71; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n90) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n66) [new Application/Traffic/CBR]
$app(rp-n66) set packetSize_ 40; $app(rp-n66) set rate_ 320
$app(rp-n66) set random_ 0
$app(rp-n66) attach-agent $a
set agent(rp-n66) $a; set sink(rp-n66) $s
$ns at 1.9698 "$app(rp-n66) start"
set a [new Agent/UDP]
$a set fid_ 72; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n28) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n63) [new Application/Traffic/CBR]
$app(rp-n63) set packetSize_ 40; $app(rp-n63) set rate_ 320
$app(rp-n63) set random_ 0
$app(rp-n63) attach-agent $a
set agent(rp-n63) $a; set sink(rp-n63) $s
$ns at 1.9704 "$app(rp-n63) start"
set a [new Agent/UDP]
$a set fid_ 73; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n57) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n95) [new Application/Traffic/CBR]
$app(rp-n95) set packetSize_ 40; $app(rp-n95) set rate_ 320
$app(rp-n95) set random_ 0
$app(rp-n95) attach-agent $a
set agent(rp-n95) $a; set sink(rp-n95) $s
$ns at 1.972 "$app(rp-n95) start"
set a [new Agent/UDP]
$a set fid_ 74; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n90) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n35) [new Application/Traffic/CBR]
$app(rp-n35) set packetSize_ 40; $app(rp-n35) set rate_ 320
$app(rp-n35) set random_ 0
$app(rp-n35) attach-agent $a
set agent(rp-n35) $a; set sink(rp-n35) $s
$ns at 1.9754 "$app(rp-n35) start"
set a [new Agent/UDP]
$a set fid_ 75; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n28) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n9) [new Application/Traffic/CBR]
$app(rp-n9) set packetSize_ 40; $app(rp-n9) set rate_ 320
$app(rp-n9) set random_ 0
$app(rp-n9) attach-agent $a
set agent(rp-n9) $a; set sink(rp-n9) $s
$ns at 1.9756 "$app(rp-n9) start"
set a [new Agent/UDP]
$a set fid_ 76; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n57) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n7) [new Application/Traffic/CBR]
$app(rp-n7) set packetSize_ 40; $app(rp-n7) set rate_ 320
$app(rp-n7) set random_ 0
$app(rp-n7) attach-agent $a
set agent(rp-n7) $a; set sink(rp-n7) $s
$ns at 1.9784 "$app(rp-n7) start"
set a [new Agent/UDP]
$a set fid_ 77; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n57) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n32) [new Application/Traffic/CBR]
$app(rp-n32) set packetSize_ 40; $app(rp-n32) set rate_ 320
$app(rp-n32) set random_ 0
$app(rp-n32) attach-agent $a
set agent(rp-n32) $a; set sink(rp-n32) $s
$ns at 1.9828 "$app(rp-n32) start"
set a [new Agent/UDP]
$a set fid_ 78; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n28) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n53) [new Application/Traffic/CBR]
$app(rp-n53) set packetSize_ 40; $app(rp-n53) set rate_ 320
$app(rp-n53) set random_ 0
$app(rp-n53) attach-agent $a
set agent(rp-n53) $a; set sink(rp-n53) $s
$ns at 1.9836 "$app(rp-n53) start"
set a [new Agent/UDP]
$a set fid_ 79; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n90) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n45) [new Application/Traffic/CBR]
$app(rp-n45) set packetSize_ 40; $app(rp-n45) set rate_ 320
$app(rp-n45) set random_ 0
$app(rp-n45) attach-agent $a
set agent(rp-n45) $a; set sink(rp-n45) $s
$ns at 1.9878 "$app(rp-n45) start"
set a [new Agent/UDP]
$a set fid_ 80; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n57) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n31) [new Application/Traffic/CBR]
$app(rp-n31) set packetSize_ 40; $app(rp-n31) set rate_ 320
$app(rp-n31) set random_ 0
$app(rp-n31) attach-agent $a
set agent(rp-n31) $a; set sink(rp-n31) $s
$ns at 1.9952 "$app(rp-n31) start"
set a [new Agent/UDP]
$a set fid_ 81; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n90) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n43) [new Application/Traffic/CBR]
$app(rp-n43) set packetSize_ 40; $app(rp-n43) set rate_ 320
$app(rp-n43) set random_ 0
$app(rp-n43) attach-agent $a
set agent(rp-n43) $a; set sink(rp-n43) $s
$ns at 1.9958 "$app(rp-n43) start"
set a [new Agent/UDP]
$a set fid_ 82; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n28) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n59) [new Application/Traffic/CBR]
$app(rp-n59) set packetSize_ 40; $app(rp-n59) set rate_ 320
$app(rp-n59) set random_ 0
$app(rp-n59) attach-agent $a
set agent(rp-n59) $a; set sink(rp-n59) $s
$ns at 1.9964 "$app(rp-n59) start"
set a [new Agent/UDP]
$a set fid_ 83; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n90) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n48) [new Application/Traffic/CBR]
$app(rp-n48) set packetSize_ 40; $app(rp-n48) set rate_ 320
$app(rp-n48) set random_ 0
$app(rp-n48) attach-agent $a
set agent(rp-n48) $a; set sink(rp-n48) $s
$ns at 1.999 "$app(rp-n48) start"
set a [new Agent/UDP]
$a set fid_ 84; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n28) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n41) [new Application/Traffic/CBR]
$app(rp-n41) set packetSize_ 40; $app(rp-n41) set rate_ 320
$app(rp-n41) set random_ 0
$app(rp-n41) attach-agent $a
set agent(rp-n41) $a; set sink(rp-n41) $s
$ns at 2.002 "$app(rp-n41) start"
set a [new Agent/UDP]
$a set fid_ 85; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n90) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n91) [new Application/Traffic/CBR]
$app(rp-n91) set packetSize_ 40; $app(rp-n91) set rate_ 320
$app(rp-n91) set random_ 0
$app(rp-n91) attach-agent $a
set agent(rp-n91) $a; set sink(rp-n91) $s
$ns at 2.0058 "$app(rp-n91) start"
set a [new Agent/UDP]
$a set fid_ 86; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n28) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n70) [new Application/Traffic/CBR]
$app(rp-n70) set packetSize_ 40; $app(rp-n70) set rate_ 320
$app(rp-n70) set random_ 0
$app(rp-n70) attach-agent $a
set agent(rp-n70) $a; set sink(rp-n70) $s
$ns at 2.0076 "$app(rp-n70) start"
set a [new Agent/UDP]
$a set fid_ 87; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n57) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n83) [new Application/Traffic/CBR]
$app(rp-n83) set packetSize_ 40; $app(rp-n83) set rate_ 320
$app(rp-n83) set random_ 0
$app(rp-n83) attach-agent $a
set agent(rp-n83) $a; set sink(rp-n83) $s
$ns at 2.0176 "$app(rp-n83) start"
set a [new Agent/UDP]
$a set fid_ 88; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n57) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n52) [new Application/Traffic/CBR]
$app(rp-n52) set packetSize_ 40; $app(rp-n52) set rate_ 320
$app(rp-n52) set random_ 0
$app(rp-n52) attach-agent $a
set agent(rp-n52) $a; set sink(rp-n52) $s
$ns at 2.036 "$app(rp-n52) start"
set a [new Agent/UDP]
$a set fid_ 89; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n90) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n11) [new Application/Traffic/CBR]
$app(rp-n11) set packetSize_ 40; $app(rp-n11) set rate_ 320
$app(rp-n11) set random_ 0
$app(rp-n11) attach-agent $a
set agent(rp-n11) $a; set sink(rp-n11) $s
$ns at 2.0382 "$app(rp-n11) start"
set a [new Agent/UDP]
$a set fid_ 90; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n90) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n54) [new Application/Traffic/CBR]
$app(rp-n54) set packetSize_ 40; $app(rp-n54) set rate_ 320
$app(rp-n54) set random_ 0
$app(rp-n54) attach-agent $a
set agent(rp-n54) $a; set sink(rp-n54) $s
$ns at 2.0522 "$app(rp-n54) start"
set a [new Agent/UDP]
$a set fid_ 91; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n90) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n71) [new Application/Traffic/CBR]
$app(rp-n71) set packetSize_ 40; $app(rp-n71) set rate_ 320
$app(rp-n71) set random_ 0
$app(rp-n71) attach-agent $a
set agent(rp-n71) $a; set sink(rp-n71) $s
$ns at 2.0578 "$app(rp-n71) start"
set a [new Agent/UDP]
$a set fid_ 92; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n90) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n85) [new Application/Traffic/CBR]
$app(rp-n85) set packetSize_ 40; $app(rp-n85) set rate_ 320
$app(rp-n85) set random_ 0
$app(rp-n85) attach-agent $a
set agent(rp-n85) $a; set sink(rp-n85) $s
$ns at 2.0718 "$app(rp-n85) start"
set a [new Agent/UDP]
$a set fid_ 93; $a set packetSize_ 40
set s [new Agent/LossMonitor]
$ns attach-agent $n(n90) $a; $ns attach-agent $n(n0) $s; $ns connect $a $s
set app(rp-n62) [new Application/Traffic/CBR]
$app(rp-n62) set packetSize_ 40; $app(rp-n62) set rate_ 320
$app(rp-n62) set random_ 0
$app(rp-n62) attach-agent $a
set agent(rp-n62) $a; set sink(rp-n62) $s
$ns at 2.1006 "$app(rp-n62) start"
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
  if {$now > 1.7198} {
    set b [$sink(rp-n90) set bytes_]; if {![info exists last_bytes(rp-n90)]} { set last_bytes(rp-n90) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n90 [expr {($b - $last_bytes(rp-n90)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n90) $b
  }
  if {$now > 1.7562} {
    set b [$sink(rp-n4) set bytes_]; if {![info exists last_bytes(rp-n4)]} { set last_bytes(rp-n4) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n4 [expr {($b - $last_bytes(rp-n4)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n4) $b
  }
  if {$now > 1.758} {
    set b [$sink(rp-n28) set bytes_]; if {![info exists last_bytes(rp-n28)]} { set last_bytes(rp-n28) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n28 [expr {($b - $last_bytes(rp-n28)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n28) $b
  }
  if {$now > 1.7752} {
    set b [$sink(rp-n57) set bytes_]; if {![info exists last_bytes(rp-n57)]} { set last_bytes(rp-n57) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n57 [expr {($b - $last_bytes(rp-n57)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n57) $b
  }
  if {$now > 1.7794} {
    set b [$sink(rp-n68) set bytes_]; if {![info exists last_bytes(rp-n68)]} { set last_bytes(rp-n68) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n68 [expr {($b - $last_bytes(rp-n68)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n68) $b
  }
  if {$now > 1.7996} {
    set b [$sink(rp-n16) set bytes_]; if {![info exists last_bytes(rp-n16)]} { set last_bytes(rp-n16) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n16 [expr {($b - $last_bytes(rp-n16)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n16) $b
  }
  if {$now > 1.8006} {
    set b [$sink(rp-n61) set bytes_]; if {![info exists last_bytes(rp-n61)]} { set last_bytes(rp-n61) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n61 [expr {($b - $last_bytes(rp-n61)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n61) $b
  }
  if {$now > 1.8046} {
    set b [$sink(rp-n12) set bytes_]; if {![info exists last_bytes(rp-n12)]} { set last_bytes(rp-n12) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n12 [expr {($b - $last_bytes(rp-n12)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n12) $b
  }
  if {$now > 1.818} {
    set b [$sink(rp-n97) set bytes_]; if {![info exists last_bytes(rp-n97)]} { set last_bytes(rp-n97) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n97 [expr {($b - $last_bytes(rp-n97)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n97) $b
  }
  if {$now > 1.8258} {
    set b [$sink(rp-n18) set bytes_]; if {![info exists last_bytes(rp-n18)]} { set last_bytes(rp-n18) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n18 [expr {($b - $last_bytes(rp-n18)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n18) $b
  }
  if {$now > 1.8264} {
    set b [$sink(rp-n1) set bytes_]; if {![info exists last_bytes(rp-n1)]} { set last_bytes(rp-n1) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n1 [expr {($b - $last_bytes(rp-n1)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n1) $b
  }
  if {$now > 1.8276} {
    set b [$sink(rp-n19) set bytes_]; if {![info exists last_bytes(rp-n19)]} { set last_bytes(rp-n19) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n19 [expr {($b - $last_bytes(rp-n19)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n19) $b
  }
  if {$now > 1.8304} {
    set b [$sink(rp-n23) set bytes_]; if {![info exists last_bytes(rp-n23)]} { set last_bytes(rp-n23) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n23 [expr {($b - $last_bytes(rp-n23)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n23) $b
  }
  if {$now > 1.8344} {
    set b [$sink(rp-n79) set bytes_]; if {![info exists last_bytes(rp-n79)]} { set last_bytes(rp-n79) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n79 [expr {($b - $last_bytes(rp-n79)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n79) $b
  }
  if {$now > 1.8396} {
    set b [$sink(rp-n80) set bytes_]; if {![info exists last_bytes(rp-n80)]} { set last_bytes(rp-n80) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n80 [expr {($b - $last_bytes(rp-n80)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n80) $b
  }
  if {$now > 1.848} {
    set b [$sink(rp-n36) set bytes_]; if {![info exists last_bytes(rp-n36)]} { set last_bytes(rp-n36) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n36 [expr {($b - $last_bytes(rp-n36)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n36) $b
  }
  if {$now > 1.857} {
    set b [$sink(rp-n86) set bytes_]; if {![info exists last_bytes(rp-n86)]} { set last_bytes(rp-n86) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n86 [expr {($b - $last_bytes(rp-n86)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n86) $b
  }
  if {$now > 1.8588} {
    set b [$sink(rp-n5) set bytes_]; if {![info exists last_bytes(rp-n5)]} { set last_bytes(rp-n5) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n5 [expr {($b - $last_bytes(rp-n5)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n5) $b
  }
  if {$now > 1.8648} {
    set b [$sink(rp-n69) set bytes_]; if {![info exists last_bytes(rp-n69)]} { set last_bytes(rp-n69) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n69 [expr {($b - $last_bytes(rp-n69)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n69) $b
  }
  if {$now > 1.875} {
    set b [$sink(rp-n3) set bytes_]; if {![info exists last_bytes(rp-n3)]} { set last_bytes(rp-n3) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n3 [expr {($b - $last_bytes(rp-n3)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n3) $b
  }
  if {$now > 1.8782} {
    set b [$sink(rp-n65) set bytes_]; if {![info exists last_bytes(rp-n65)]} { set last_bytes(rp-n65) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n65 [expr {($b - $last_bytes(rp-n65)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n65) $b
  }
  if {$now > 1.8788} {
    set b [$sink(rp-n17) set bytes_]; if {![info exists last_bytes(rp-n17)]} { set last_bytes(rp-n17) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n17 [expr {($b - $last_bytes(rp-n17)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n17) $b
  }
  if {$now > 1.882} {
    set b [$sink(rp-n76) set bytes_]; if {![info exists last_bytes(rp-n76)]} { set last_bytes(rp-n76) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n76 [expr {($b - $last_bytes(rp-n76)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n76) $b
  }
  if {$now > 1.885} {
    set b [$sink(rp-n6) set bytes_]; if {![info exists last_bytes(rp-n6)]} { set last_bytes(rp-n6) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n6 [expr {($b - $last_bytes(rp-n6)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n6) $b
  }
  if {$now > 1.886} {
    set b [$sink(rp-n14) set bytes_]; if {![info exists last_bytes(rp-n14)]} { set last_bytes(rp-n14) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n14 [expr {($b - $last_bytes(rp-n14)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n14) $b
  }
  if {$now > 1.887} {
    set b [$sink(rp-n37) set bytes_]; if {![info exists last_bytes(rp-n37)]} { set last_bytes(rp-n37) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n37 [expr {($b - $last_bytes(rp-n37)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n37) $b
  }
  if {$now > 1.8872} {
    set b [$sink(rp-n2) set bytes_]; if {![info exists last_bytes(rp-n2)]} { set last_bytes(rp-n2) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n2 [expr {($b - $last_bytes(rp-n2)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n2) $b
  }
  if {$now > 1.8882} {
    set b [$sink(rp-n42) set bytes_]; if {![info exists last_bytes(rp-n42)]} { set last_bytes(rp-n42) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n42 [expr {($b - $last_bytes(rp-n42)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n42) $b
  }
  if {$now > 1.8904} {
    set b [$sink(rp-n10) set bytes_]; if {![info exists last_bytes(rp-n10)]} { set last_bytes(rp-n10) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n10 [expr {($b - $last_bytes(rp-n10)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n10) $b
  }
  if {$now > 1.8988} {
    set b [$sink(rp-n81) set bytes_]; if {![info exists last_bytes(rp-n81)]} { set last_bytes(rp-n81) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n81 [expr {($b - $last_bytes(rp-n81)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n81) $b
  }
  if {$now > 1.9032} {
    set b [$sink(rp-n89) set bytes_]; if {![info exists last_bytes(rp-n89)]} { set last_bytes(rp-n89) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n89 [expr {($b - $last_bytes(rp-n89)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n89) $b
  }
  if {$now > 1.9054} {
    set b [$sink(rp-n92) set bytes_]; if {![info exists last_bytes(rp-n92)]} { set last_bytes(rp-n92) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n92 [expr {($b - $last_bytes(rp-n92)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n92) $b
  }
  if {$now > 1.9076} {
    set b [$sink(rp-n58) set bytes_]; if {![info exists last_bytes(rp-n58)]} { set last_bytes(rp-n58) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n58 [expr {($b - $last_bytes(rp-n58)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n58) $b
  }
  if {$now > 1.9104} {
    set b [$sink(rp-n84) set bytes_]; if {![info exists last_bytes(rp-n84)]} { set last_bytes(rp-n84) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n84 [expr {($b - $last_bytes(rp-n84)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n84) $b
  }
  if {$now > 1.9108} {
    set b [$sink(rp-n99) set bytes_]; if {![info exists last_bytes(rp-n99)]} { set last_bytes(rp-n99) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n99 [expr {($b - $last_bytes(rp-n99)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n99) $b
  }
  if {$now > 1.9138} {
    set b [$sink(rp-n15) set bytes_]; if {![info exists last_bytes(rp-n15)]} { set last_bytes(rp-n15) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n15 [expr {($b - $last_bytes(rp-n15)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n15) $b
  }
  if {$now > 1.914} {
    set b [$sink(rp-n46) set bytes_]; if {![info exists last_bytes(rp-n46)]} { set last_bytes(rp-n46) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n46 [expr {($b - $last_bytes(rp-n46)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n46) $b
  }
  if {$now > 1.9172} {
    set b [$sink(rp-n29) set bytes_]; if {![info exists last_bytes(rp-n29)]} { set last_bytes(rp-n29) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n29 [expr {($b - $last_bytes(rp-n29)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n29) $b
  }
  if {$now > 1.9174} {
    set b [$sink(rp-n88) set bytes_]; if {![info exists last_bytes(rp-n88)]} { set last_bytes(rp-n88) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n88 [expr {($b - $last_bytes(rp-n88)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n88) $b
  }
  if {$now > 1.9188} {
    set b [$sink(rp-n13) set bytes_]; if {![info exists last_bytes(rp-n13)]} { set last_bytes(rp-n13) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n13 [expr {($b - $last_bytes(rp-n13)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n13) $b
  }
  if {$now > 1.9204} {
    set b [$sink(rp-n67) set bytes_]; if {![info exists last_bytes(rp-n67)]} { set last_bytes(rp-n67) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n67 [expr {($b - $last_bytes(rp-n67)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n67) $b
  }
  if {$now > 1.9236} {
    set b [$sink(rp-n27) set bytes_]; if {![info exists last_bytes(rp-n27)]} { set last_bytes(rp-n27) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n27 [expr {($b - $last_bytes(rp-n27)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n27) $b
  }
  if {$now > 1.9252} {
    set b [$sink(rp-n74) set bytes_]; if {![info exists last_bytes(rp-n74)]} { set last_bytes(rp-n74) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n74 [expr {($b - $last_bytes(rp-n74)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n74) $b
  }
  if {$now > 1.9268} {
    set b [$sink(rp-n38) set bytes_]; if {![info exists last_bytes(rp-n38)]} { set last_bytes(rp-n38) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n38 [expr {($b - $last_bytes(rp-n38)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n38) $b
  }
  if {$now > 1.9274} {
    set b [$sink(rp-n55) set bytes_]; if {![info exists last_bytes(rp-n55)]} { set last_bytes(rp-n55) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n55 [expr {($b - $last_bytes(rp-n55)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n55) $b
  }
  if {$now > 1.9288} {
    set b [$sink(rp-n78) set bytes_]; if {![info exists last_bytes(rp-n78)]} { set last_bytes(rp-n78) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n78 [expr {($b - $last_bytes(rp-n78)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n78) $b
  }
  if {$now > 1.93} {
    set b [$sink(rp-n44) set bytes_]; if {![info exists last_bytes(rp-n44)]} { set last_bytes(rp-n44) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n44 [expr {($b - $last_bytes(rp-n44)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n44) $b
  }
  if {$now > 1.9306} {
    set b [$sink(rp-n64) set bytes_]; if {![info exists last_bytes(rp-n64)]} { set last_bytes(rp-n64) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n64 [expr {($b - $last_bytes(rp-n64)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n64) $b
  }
  if {$now > 1.932} {
    set b [$sink(rp-n49) set bytes_]; if {![info exists last_bytes(rp-n49)]} { set last_bytes(rp-n49) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n49 [expr {($b - $last_bytes(rp-n49)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n49) $b
  }
  if {$now > 1.9332} {
    set b [$sink(rp-n8) set bytes_]; if {![info exists last_bytes(rp-n8)]} { set last_bytes(rp-n8) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n8 [expr {($b - $last_bytes(rp-n8)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n8) $b
  }
  if {$now > 1.9338} {
    set b [$sink(rp-n39) set bytes_]; if {![info exists last_bytes(rp-n39)]} { set last_bytes(rp-n39) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n39 [expr {($b - $last_bytes(rp-n39)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n39) $b
  }
  if {$now > 1.9352} {
    set b [$sink(rp-n56) set bytes_]; if {![info exists last_bytes(rp-n56)]} { set last_bytes(rp-n56) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n56 [expr {($b - $last_bytes(rp-n56)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n56) $b
  }
  if {$now > 1.9364} {
    set b [$sink(rp-n20) set bytes_]; if {![info exists last_bytes(rp-n20)]} { set last_bytes(rp-n20) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n20 [expr {($b - $last_bytes(rp-n20)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n20) $b
  }
  if {$now > 1.9412} {
    set b [$sink(rp-n73) set bytes_]; if {![info exists last_bytes(rp-n73)]} { set last_bytes(rp-n73) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n73 [expr {($b - $last_bytes(rp-n73)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n73) $b
  }
  if {$now > 1.9432} {
    set b [$sink(rp-n75) set bytes_]; if {![info exists last_bytes(rp-n75)]} { set last_bytes(rp-n75) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n75 [expr {($b - $last_bytes(rp-n75)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n75) $b
  }
  if {$now > 1.9434} {
    set b [$sink(rp-n93) set bytes_]; if {![info exists last_bytes(rp-n93)]} { set last_bytes(rp-n93) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n93 [expr {($b - $last_bytes(rp-n93)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n93) $b
  }
  if {$now > 1.9444} {
    set b [$sink(rp-n82) set bytes_]; if {![info exists last_bytes(rp-n82)]} { set last_bytes(rp-n82) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n82 [expr {($b - $last_bytes(rp-n82)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n82) $b
  }
  if {$now > 1.9464} {
    set b [$sink(rp-n21) set bytes_]; if {![info exists last_bytes(rp-n21)]} { set last_bytes(rp-n21) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n21 [expr {($b - $last_bytes(rp-n21)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n21) $b
  }
  if {$now > 1.9482} {
    set b [$sink(rp-n24) set bytes_]; if {![info exists last_bytes(rp-n24)]} { set last_bytes(rp-n24) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n24 [expr {($b - $last_bytes(rp-n24)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n24) $b
  }
  if {$now > 1.9484} {
    set b [$sink(rp-n60) set bytes_]; if {![info exists last_bytes(rp-n60)]} { set last_bytes(rp-n60) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n60 [expr {($b - $last_bytes(rp-n60)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n60) $b
  }
  if {$now > 1.9496} {
    set b [$sink(rp-n25) set bytes_]; if {![info exists last_bytes(rp-n25)]} { set last_bytes(rp-n25) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n25 [expr {($b - $last_bytes(rp-n25)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n25) $b
  }
  if {$now > 1.9516} {
    set b [$sink(rp-n98) set bytes_]; if {![info exists last_bytes(rp-n98)]} { set last_bytes(rp-n98) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n98 [expr {($b - $last_bytes(rp-n98)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n98) $b
  }
  if {$now > 1.9552} {
    set b [$sink(rp-n33) set bytes_]; if {![info exists last_bytes(rp-n33)]} { set last_bytes(rp-n33) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n33 [expr {($b - $last_bytes(rp-n33)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n33) $b
  }
  if {$now > 1.9584} {
    set b [$sink(rp-n94) set bytes_]; if {![info exists last_bytes(rp-n94)]} { set last_bytes(rp-n94) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n94 [expr {($b - $last_bytes(rp-n94)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n94) $b
  }
  if {$now > 1.962} {
    set b [$sink(rp-n50) set bytes_]; if {![info exists last_bytes(rp-n50)]} { set last_bytes(rp-n50) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n50 [expr {($b - $last_bytes(rp-n50)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n50) $b
  }
  if {$now > 1.9634} {
    set b [$sink(rp-n87) set bytes_]; if {![info exists last_bytes(rp-n87)]} { set last_bytes(rp-n87) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n87 [expr {($b - $last_bytes(rp-n87)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n87) $b
  }
  if {$now > 1.9656} {
    set b [$sink(rp-n72) set bytes_]; if {![info exists last_bytes(rp-n72)]} { set last_bytes(rp-n72) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n72 [expr {($b - $last_bytes(rp-n72)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n72) $b
  }
  if {$now > 1.9666} {
    set b [$sink(rp-n34) set bytes_]; if {![info exists last_bytes(rp-n34)]} { set last_bytes(rp-n34) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n34 [expr {($b - $last_bytes(rp-n34)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n34) $b
  }
  if {$now > 1.9672} {
    set b [$sink(rp-n22) set bytes_]; if {![info exists last_bytes(rp-n22)]} { set last_bytes(rp-n22) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n22 [expr {($b - $last_bytes(rp-n22)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n22) $b
  }
  if {$now > 1.9688} {
    set b [$sink(rp-n47) set bytes_]; if {![info exists last_bytes(rp-n47)]} { set last_bytes(rp-n47) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n47 [expr {($b - $last_bytes(rp-n47)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n47) $b
  }
  if {$now > 1.9698} {
    set b [$sink(rp-n66) set bytes_]; if {![info exists last_bytes(rp-n66)]} { set last_bytes(rp-n66) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n66 [expr {($b - $last_bytes(rp-n66)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n66) $b
  }
  if {$now > 1.9704} {
    set b [$sink(rp-n63) set bytes_]; if {![info exists last_bytes(rp-n63)]} { set last_bytes(rp-n63) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n63 [expr {($b - $last_bytes(rp-n63)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n63) $b
  }
  if {$now > 1.972} {
    set b [$sink(rp-n95) set bytes_]; if {![info exists last_bytes(rp-n95)]} { set last_bytes(rp-n95) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n95 [expr {($b - $last_bytes(rp-n95)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n95) $b
  }
  if {$now > 1.9754} {
    set b [$sink(rp-n35) set bytes_]; if {![info exists last_bytes(rp-n35)]} { set last_bytes(rp-n35) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n35 [expr {($b - $last_bytes(rp-n35)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n35) $b
  }
  if {$now > 1.9756} {
    set b [$sink(rp-n9) set bytes_]; if {![info exists last_bytes(rp-n9)]} { set last_bytes(rp-n9) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n9 [expr {($b - $last_bytes(rp-n9)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n9) $b
  }
  if {$now > 1.9784} {
    set b [$sink(rp-n7) set bytes_]; if {![info exists last_bytes(rp-n7)]} { set last_bytes(rp-n7) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n7 [expr {($b - $last_bytes(rp-n7)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n7) $b
  }
  if {$now > 1.9828} {
    set b [$sink(rp-n32) set bytes_]; if {![info exists last_bytes(rp-n32)]} { set last_bytes(rp-n32) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n32 [expr {($b - $last_bytes(rp-n32)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n32) $b
  }
  if {$now > 1.9836} {
    set b [$sink(rp-n53) set bytes_]; if {![info exists last_bytes(rp-n53)]} { set last_bytes(rp-n53) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n53 [expr {($b - $last_bytes(rp-n53)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n53) $b
  }
  if {$now > 1.9878} {
    set b [$sink(rp-n45) set bytes_]; if {![info exists last_bytes(rp-n45)]} { set last_bytes(rp-n45) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n45 [expr {($b - $last_bytes(rp-n45)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n45) $b
  }
  if {$now > 1.9952} {
    set b [$sink(rp-n31) set bytes_]; if {![info exists last_bytes(rp-n31)]} { set last_bytes(rp-n31) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n31 [expr {($b - $last_bytes(rp-n31)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n31) $b
  }
  if {$now > 1.9958} {
    set b [$sink(rp-n43) set bytes_]; if {![info exists last_bytes(rp-n43)]} { set last_bytes(rp-n43) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n43 [expr {($b - $last_bytes(rp-n43)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n43) $b
  }
  if {$now > 1.9964} {
    set b [$sink(rp-n59) set bytes_]; if {![info exists last_bytes(rp-n59)]} { set last_bytes(rp-n59) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n59 [expr {($b - $last_bytes(rp-n59)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n59) $b
  }
  if {$now > 1.999} {
    set b [$sink(rp-n48) set bytes_]; if {![info exists last_bytes(rp-n48)]} { set last_bytes(rp-n48) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n48 [expr {($b - $last_bytes(rp-n48)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n48) $b
  }
  if {$now > 2.002} {
    set b [$sink(rp-n41) set bytes_]; if {![info exists last_bytes(rp-n41)]} { set last_bytes(rp-n41) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n41 [expr {($b - $last_bytes(rp-n41)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n41) $b
  }
  if {$now > 2.0058} {
    set b [$sink(rp-n91) set bytes_]; if {![info exists last_bytes(rp-n91)]} { set last_bytes(rp-n91) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n91 [expr {($b - $last_bytes(rp-n91)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n91) $b
  }
  if {$now > 2.0076} {
    set b [$sink(rp-n70) set bytes_]; if {![info exists last_bytes(rp-n70)]} { set last_bytes(rp-n70) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n70 [expr {($b - $last_bytes(rp-n70)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n70) $b
  }
  if {$now > 2.0176} {
    set b [$sink(rp-n83) set bytes_]; if {![info exists last_bytes(rp-n83)]} { set last_bytes(rp-n83) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n83 [expr {($b - $last_bytes(rp-n83)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n83) $b
  }
  if {$now > 2.036} {
    set b [$sink(rp-n52) set bytes_]; if {![info exists last_bytes(rp-n52)]} { set last_bytes(rp-n52) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n52 [expr {($b - $last_bytes(rp-n52)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n52) $b
  }
  if {$now > 2.0382} {
    set b [$sink(rp-n11) set bytes_]; if {![info exists last_bytes(rp-n11)]} { set last_bytes(rp-n11) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n11 [expr {($b - $last_bytes(rp-n11)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n11) $b
  }
  if {$now > 2.0522} {
    set b [$sink(rp-n54) set bytes_]; if {![info exists last_bytes(rp-n54)]} { set last_bytes(rp-n54) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n54 [expr {($b - $last_bytes(rp-n54)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n54) $b
  }
  if {$now > 2.0578} {
    set b [$sink(rp-n71) set bytes_]; if {![info exists last_bytes(rp-n71)]} { set last_bytes(rp-n71) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n71 [expr {($b - $last_bytes(rp-n71)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n71) $b
  }
  if {$now > 2.0718} {
    set b [$sink(rp-n85) set bytes_]; if {![info exists last_bytes(rp-n85)]} { set last_bytes(rp-n85) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n85 [expr {($b - $last_bytes(rp-n85)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n85) $b
  }
  if {$now > 2.1006} {
    set b [$sink(rp-n62) set bytes_]; if {![info exists last_bytes(rp-n62)]} { set last_bytes(rp-n62) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate rp-n62 [expr {($b - $last_bytes(rp-n62)) * 8.0 * 12 / 40 / $dt}]"
    set last_bytes(rp-n62) $b
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
  set k $tag,arrivals,n90->n0,1
  set snapshot($tag,rp-n90) [list [$sink(rp-n90) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n90->n0,2
  set snapshot($tag,rp-n4) [list [$sink(rp-n4) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n28->n90,3
  set snapshot($tag,rp-n28) [list [$sink(rp-n28) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n57->n28,4
  set snapshot($tag,rp-n57) [list [$sink(rp-n57) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n68->n57,5
  set snapshot($tag,rp-n68) [list [$sink(rp-n68) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n57->n28,6
  set snapshot($tag,rp-n16) [list [$sink(rp-n16) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n90->n0,7
  set snapshot($tag,rp-n61) [list [$sink(rp-n61) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n12->n68,8
  set snapshot($tag,rp-n12) [list [$sink(rp-n12) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n57->n28,9
  set snapshot($tag,rp-n97) [list [$sink(rp-n97) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n18->n12,10
  set snapshot($tag,rp-n18) [list [$sink(rp-n18) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n28->n90,11
  set snapshot($tag,rp-n1) [list [$sink(rp-n1) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n57->n28,12
  set snapshot($tag,rp-n19) [list [$sink(rp-n19) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n57->n28,13
  set snapshot($tag,rp-n23) [list [$sink(rp-n23) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n28->n90,14
  set snapshot($tag,rp-n79) [list [$sink(rp-n79) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n57->n28,15
  set snapshot($tag,rp-n80) [list [$sink(rp-n80) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n57->n28,16
  set snapshot($tag,rp-n36) [list [$sink(rp-n36) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n86->n18,17
  set snapshot($tag,rp-n86) [list [$sink(rp-n86) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n28->n90,18
  set snapshot($tag,rp-n5) [list [$sink(rp-n5) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n57->n28,19
  set snapshot($tag,rp-n69) [list [$sink(rp-n69) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n90->n0,20
  set snapshot($tag,rp-n3) [list [$sink(rp-n3) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n90->n0,21
  set snapshot($tag,rp-n65) [list [$sink(rp-n65) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n28->n90,22
  set snapshot($tag,rp-n17) [list [$sink(rp-n17) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n28->n90,23
  set snapshot($tag,rp-n76) [list [$sink(rp-n76) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n90->n0,24
  set snapshot($tag,rp-n6) [list [$sink(rp-n6) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n57->n28,25
  set snapshot($tag,rp-n14) [list [$sink(rp-n14) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n12->n68,26
  set snapshot($tag,rp-n37) [list [$sink(rp-n37) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n28->n90,27
  set snapshot($tag,rp-n2) [list [$sink(rp-n2) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n90->n0,28
  set snapshot($tag,rp-n42) [list [$sink(rp-n42) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n57->n28,29
  set snapshot($tag,rp-n10) [list [$sink(rp-n10) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n28->n90,30
  set snapshot($tag,rp-n81) [list [$sink(rp-n81) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n89->n86,31
  set snapshot($tag,rp-n89) [list [$sink(rp-n89) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n90->n0,32
  set snapshot($tag,rp-n92) [list [$sink(rp-n92) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n28->n90,33
  set snapshot($tag,rp-n58) [list [$sink(rp-n58) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n57->n28,34
  set snapshot($tag,rp-n84) [list [$sink(rp-n84) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n28->n90,35
  set snapshot($tag,rp-n99) [list [$sink(rp-n99) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n90->n0,36
  set snapshot($tag,rp-n15) [list [$sink(rp-n15) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n28->n90,37
  set snapshot($tag,rp-n46) [list [$sink(rp-n46) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n28->n90,38
  set snapshot($tag,rp-n29) [list [$sink(rp-n29) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n90->n0,39
  set snapshot($tag,rp-n88) [list [$sink(rp-n88) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n57->n28,40
  set snapshot($tag,rp-n13) [list [$sink(rp-n13) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n28->n90,41
  set snapshot($tag,rp-n67) [list [$sink(rp-n67) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n28->n90,42
  set snapshot($tag,rp-n27) [list [$sink(rp-n27) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n57->n28,43
  set snapshot($tag,rp-n74) [list [$sink(rp-n74) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n28->n90,44
  set snapshot($tag,rp-n38) [list [$sink(rp-n38) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n90->n0,45
  set snapshot($tag,rp-n55) [list [$sink(rp-n55) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n57->n28,46
  set snapshot($tag,rp-n78) [list [$sink(rp-n78) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n28->n90,47
  set snapshot($tag,rp-n44) [list [$sink(rp-n44) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n90->n0,48
  set snapshot($tag,rp-n64) [list [$sink(rp-n64) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n57->n28,49
  set snapshot($tag,rp-n49) [list [$sink(rp-n49) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n28->n90,50
  set snapshot($tag,rp-n8) [list [$sink(rp-n8) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n90->n0,51
  set snapshot($tag,rp-n39) [list [$sink(rp-n39) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n57->n28,52
  set snapshot($tag,rp-n56) [list [$sink(rp-n56) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n28->n90,53
  set snapshot($tag,rp-n20) [list [$sink(rp-n20) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n57->n28,54
  set snapshot($tag,rp-n73) [list [$sink(rp-n73) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n28->n90,55
  set snapshot($tag,rp-n75) [list [$sink(rp-n75) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n12->n68,56
  set snapshot($tag,rp-n93) [list [$sink(rp-n93) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n57->n28,57
  set snapshot($tag,rp-n82) [list [$sink(rp-n82) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n28->n90,58
  set snapshot($tag,rp-n21) [list [$sink(rp-n21) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n90->n0,59
  set snapshot($tag,rp-n24) [list [$sink(rp-n24) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n57->n28,60
  set snapshot($tag,rp-n60) [list [$sink(rp-n60) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n28->n90,61
  set snapshot($tag,rp-n25) [list [$sink(rp-n25) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n57->n28,62
  set snapshot($tag,rp-n98) [list [$sink(rp-n98) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n28->n90,63
  set snapshot($tag,rp-n33) [list [$sink(rp-n33) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n28->n90,64
  set snapshot($tag,rp-n94) [list [$sink(rp-n94) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n28->n90,65
  set snapshot($tag,rp-n50) [list [$sink(rp-n50) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n90->n0,66
  set snapshot($tag,rp-n87) [list [$sink(rp-n87) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n57->n28,67
  set snapshot($tag,rp-n72) [list [$sink(rp-n72) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n90->n0,68
  set snapshot($tag,rp-n34) [list [$sink(rp-n34) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n28->n90,69
  set snapshot($tag,rp-n22) [list [$sink(rp-n22) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n57->n28,70
  set snapshot($tag,rp-n47) [list [$sink(rp-n47) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n90->n0,71
  set snapshot($tag,rp-n66) [list [$sink(rp-n66) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n28->n90,72
  set snapshot($tag,rp-n63) [list [$sink(rp-n63) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n57->n28,73
  set snapshot($tag,rp-n95) [list [$sink(rp-n95) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n90->n0,74
  set snapshot($tag,rp-n35) [list [$sink(rp-n35) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n28->n90,75
  set snapshot($tag,rp-n9) [list [$sink(rp-n9) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n57->n28,76
  set snapshot($tag,rp-n7) [list [$sink(rp-n7) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n57->n28,77
  set snapshot($tag,rp-n32) [list [$sink(rp-n32) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n28->n90,78
  set snapshot($tag,rp-n53) [list [$sink(rp-n53) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n90->n0,79
  set snapshot($tag,rp-n45) [list [$sink(rp-n45) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n57->n28,80
  set snapshot($tag,rp-n31) [list [$sink(rp-n31) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n90->n0,81
  set snapshot($tag,rp-n43) [list [$sink(rp-n43) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n28->n90,82
  set snapshot($tag,rp-n59) [list [$sink(rp-n59) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n90->n0,83
  set snapshot($tag,rp-n48) [list [$sink(rp-n48) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n28->n90,84
  set snapshot($tag,rp-n41) [list [$sink(rp-n41) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n90->n0,85
  set snapshot($tag,rp-n91) [list [$sink(rp-n91) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n28->n90,86
  set snapshot($tag,rp-n70) [list [$sink(rp-n70) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n57->n28,87
  set snapshot($tag,rp-n83) [list [$sink(rp-n83) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n57->n28,88
  set snapshot($tag,rp-n52) [list [$sink(rp-n52) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n90->n0,89
  set snapshot($tag,rp-n11) [list [$sink(rp-n11) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n90->n0,90
  set snapshot($tag,rp-n54) [list [$sink(rp-n54) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n90->n0,91
  set snapshot($tag,rp-n71) [list [$sink(rp-n71) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n90->n0,92
  set snapshot($tag,rp-n85) [list [$sink(rp-n85) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
  set k $tag,arrivals,n90->n0,93
  set snapshot($tag,rp-n62) [list [$sink(rp-n62) set bytes_] 0 0 [expr {[info exists snapshot($k)] ? $snapshot($k) : 0}]]
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
  set b $snapshot(warm,rp-n90); set e $snapshot(end,rp-n90)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n90\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 1]}"
  set b $snapshot(warm,rp-n4); set e $snapshot(end,rp-n4)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n4\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 2]}"
  set b $snapshot(warm,rp-n28); set e $snapshot(end,rp-n28)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n28\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 3]}"
  set b $snapshot(warm,rp-n57); set e $snapshot(end,rp-n57)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n57\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 4]}"
  set b $snapshot(warm,rp-n68); set e $snapshot(end,rp-n68)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n68\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 5]}"
  set b $snapshot(warm,rp-n16); set e $snapshot(end,rp-n16)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n16\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 6]}"
  set b $snapshot(warm,rp-n61); set e $snapshot(end,rp-n61)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n61\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 7]}"
  set b $snapshot(warm,rp-n12); set e $snapshot(end,rp-n12)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n12\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 8]}"
  set b $snapshot(warm,rp-n97); set e $snapshot(end,rp-n97)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n97\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 9]}"
  set b $snapshot(warm,rp-n18); set e $snapshot(end,rp-n18)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n18\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 10]}"
  set b $snapshot(warm,rp-n1); set e $snapshot(end,rp-n1)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n1\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 11]}"
  set b $snapshot(warm,rp-n19); set e $snapshot(end,rp-n19)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n19\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 12]}"
  set b $snapshot(warm,rp-n23); set e $snapshot(end,rp-n23)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n23\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 13]}"
  set b $snapshot(warm,rp-n79); set e $snapshot(end,rp-n79)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n79\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 14]}"
  set b $snapshot(warm,rp-n80); set e $snapshot(end,rp-n80)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n80\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 15]}"
  set b $snapshot(warm,rp-n36); set e $snapshot(end,rp-n36)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n36\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 16]}"
  set b $snapshot(warm,rp-n86); set e $snapshot(end,rp-n86)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n86\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 17]}"
  set b $snapshot(warm,rp-n5); set e $snapshot(end,rp-n5)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n5\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 18]}"
  set b $snapshot(warm,rp-n69); set e $snapshot(end,rp-n69)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n69\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 19]}"
  set b $snapshot(warm,rp-n3); set e $snapshot(end,rp-n3)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n3\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 20]}"
  set b $snapshot(warm,rp-n65); set e $snapshot(end,rp-n65)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n65\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 21]}"
  set b $snapshot(warm,rp-n17); set e $snapshot(end,rp-n17)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n17\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 22]}"
  set b $snapshot(warm,rp-n76); set e $snapshot(end,rp-n76)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n76\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 23]}"
  set b $snapshot(warm,rp-n6); set e $snapshot(end,rp-n6)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n6\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 24]}"
  set b $snapshot(warm,rp-n14); set e $snapshot(end,rp-n14)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n14\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 25]}"
  set b $snapshot(warm,rp-n37); set e $snapshot(end,rp-n37)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n37\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 26]}"
  set b $snapshot(warm,rp-n2); set e $snapshot(end,rp-n2)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n2\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 27]}"
  set b $snapshot(warm,rp-n42); set e $snapshot(end,rp-n42)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n42\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 28]}"
  set b $snapshot(warm,rp-n10); set e $snapshot(end,rp-n10)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n10\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 29]}"
  set b $snapshot(warm,rp-n81); set e $snapshot(end,rp-n81)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n81\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 30]}"
  set b $snapshot(warm,rp-n89); set e $snapshot(end,rp-n89)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n89\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 31]}"
  set b $snapshot(warm,rp-n92); set e $snapshot(end,rp-n92)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n92\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 32]}"
  set b $snapshot(warm,rp-n58); set e $snapshot(end,rp-n58)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n58\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 33]}"
  set b $snapshot(warm,rp-n84); set e $snapshot(end,rp-n84)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n84\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 34]}"
  set b $snapshot(warm,rp-n99); set e $snapshot(end,rp-n99)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n99\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 35]}"
  set b $snapshot(warm,rp-n15); set e $snapshot(end,rp-n15)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n15\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 36]}"
  set b $snapshot(warm,rp-n46); set e $snapshot(end,rp-n46)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n46\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 37]}"
  set b $snapshot(warm,rp-n29); set e $snapshot(end,rp-n29)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n29\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 38]}"
  set b $snapshot(warm,rp-n88); set e $snapshot(end,rp-n88)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n88\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 39]}"
  set b $snapshot(warm,rp-n13); set e $snapshot(end,rp-n13)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n13\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 40]}"
  set b $snapshot(warm,rp-n67); set e $snapshot(end,rp-n67)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n67\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 41]}"
  set b $snapshot(warm,rp-n27); set e $snapshot(end,rp-n27)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n27\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 42]}"
  set b $snapshot(warm,rp-n74); set e $snapshot(end,rp-n74)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n74\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 43]}"
  set b $snapshot(warm,rp-n38); set e $snapshot(end,rp-n38)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n38\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 44]}"
  set b $snapshot(warm,rp-n55); set e $snapshot(end,rp-n55)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n55\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 45]}"
  set b $snapshot(warm,rp-n78); set e $snapshot(end,rp-n78)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n78\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 46]}"
  set b $snapshot(warm,rp-n44); set e $snapshot(end,rp-n44)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n44\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 47]}"
  set b $snapshot(warm,rp-n64); set e $snapshot(end,rp-n64)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n64\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 48]}"
  set b $snapshot(warm,rp-n49); set e $snapshot(end,rp-n49)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n49\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 49]}"
  set b $snapshot(warm,rp-n8); set e $snapshot(end,rp-n8)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n8\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 50]}"
  set b $snapshot(warm,rp-n39); set e $snapshot(end,rp-n39)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n39\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 51]}"
  set b $snapshot(warm,rp-n56); set e $snapshot(end,rp-n56)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n56\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 52]}"
  set b $snapshot(warm,rp-n20); set e $snapshot(end,rp-n20)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n20\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 53]}"
  set b $snapshot(warm,rp-n73); set e $snapshot(end,rp-n73)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n73\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 54]}"
  set b $snapshot(warm,rp-n75); set e $snapshot(end,rp-n75)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n75\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 55]}"
  set b $snapshot(warm,rp-n93); set e $snapshot(end,rp-n93)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n93\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 56]}"
  set b $snapshot(warm,rp-n82); set e $snapshot(end,rp-n82)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n82\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 57]}"
  set b $snapshot(warm,rp-n21); set e $snapshot(end,rp-n21)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n21\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 58]}"
  set b $snapshot(warm,rp-n24); set e $snapshot(end,rp-n24)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n24\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 59]}"
  set b $snapshot(warm,rp-n60); set e $snapshot(end,rp-n60)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n60\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 60]}"
  set b $snapshot(warm,rp-n25); set e $snapshot(end,rp-n25)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n25\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 61]}"
  set b $snapshot(warm,rp-n98); set e $snapshot(end,rp-n98)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n98\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 62]}"
  set b $snapshot(warm,rp-n33); set e $snapshot(end,rp-n33)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n33\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 63]}"
  set b $snapshot(warm,rp-n94); set e $snapshot(end,rp-n94)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n94\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 64]}"
  set b $snapshot(warm,rp-n50); set e $snapshot(end,rp-n50)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n50\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 65]}"
  set b $snapshot(warm,rp-n87); set e $snapshot(end,rp-n87)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n87\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 66]}"
  set b $snapshot(warm,rp-n72); set e $snapshot(end,rp-n72)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n72\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 67]}"
  set b $snapshot(warm,rp-n34); set e $snapshot(end,rp-n34)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n34\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 68]}"
  set b $snapshot(warm,rp-n22); set e $snapshot(end,rp-n22)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n22\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 69]}"
  set b $snapshot(warm,rp-n47); set e $snapshot(end,rp-n47)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n47\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 70]}"
  set b $snapshot(warm,rp-n66); set e $snapshot(end,rp-n66)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n66\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 71]}"
  set b $snapshot(warm,rp-n63); set e $snapshot(end,rp-n63)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n63\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 72]}"
  set b $snapshot(warm,rp-n95); set e $snapshot(end,rp-n95)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n95\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 73]}"
  set b $snapshot(warm,rp-n35); set e $snapshot(end,rp-n35)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n35\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 74]}"
  set b $snapshot(warm,rp-n9); set e $snapshot(end,rp-n9)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n9\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 75]}"
  set b $snapshot(warm,rp-n7); set e $snapshot(end,rp-n7)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n7\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 76]}"
  set b $snapshot(warm,rp-n32); set e $snapshot(end,rp-n32)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n32\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 77]}"
  set b $snapshot(warm,rp-n53); set e $snapshot(end,rp-n53)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n53\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 78]}"
  set b $snapshot(warm,rp-n45); set e $snapshot(end,rp-n45)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n45\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 79]}"
  set b $snapshot(warm,rp-n31); set e $snapshot(end,rp-n31)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n31\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 80]}"
  set b $snapshot(warm,rp-n43); set e $snapshot(end,rp-n43)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n43\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 81]}"
  set b $snapshot(warm,rp-n59); set e $snapshot(end,rp-n59)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n59\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 82]}"
  set b $snapshot(warm,rp-n48); set e $snapshot(end,rp-n48)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n48\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 83]}"
  set b $snapshot(warm,rp-n41); set e $snapshot(end,rp-n41)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n41\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 84]}"
  set b $snapshot(warm,rp-n91); set e $snapshot(end,rp-n91)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n91\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 85]}"
  set b $snapshot(warm,rp-n70); set e $snapshot(end,rp-n70)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n70\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 86]}"
  set b $snapshot(warm,rp-n83); set e $snapshot(end,rp-n83)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n83\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 87]}"
  set b $snapshot(warm,rp-n52); set e $snapshot(end,rp-n52)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n52\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 88]}"
  set b $snapshot(warm,rp-n11); set e $snapshot(end,rp-n11)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n11\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 89]}"
  set b $snapshot(warm,rp-n54); set e $snapshot(end,rp-n54)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n54\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 90]}"
  set b $snapshot(warm,rp-n71); set e $snapshot(end,rp-n71)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n71\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 91]}"
  set b $snapshot(warm,rp-n85); set e $snapshot(end,rp-n85)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n85\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 92]}"
  set b $snapshot(warm,rp-n62); set e $snapshot(end,rp-n62)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 12 / 40 / $span}]
  lappend parts "\"flow:rp-n62\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 93]}"
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
set qtrace [open {n89-rp-2.35.tr} w]
$ns trace-queue $n(n0) $n(n90) $qtrace
$ns trace-queue $n(n90) $n(n0) $qtrace
$ns run

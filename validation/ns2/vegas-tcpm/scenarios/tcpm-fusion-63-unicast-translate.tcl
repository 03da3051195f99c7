# Generated from a ccsim spec by validation/ns2/translate.py
set ns [new Simulator]
global defaultRNG; $defaultRNG seed 2
proc ccsim_json_num {x} { if {[string is double -strict $x]} { return $x } else { return null } }
set n(n0) [$ns node]
set n(n1) [$ns node]
set n(n2) [$ns node]
set n(n3) [$ns node]
set n(n4) [$ns node]
set n(n5) [$ns node]
set n(n6) [$ns node]
set n(n7) [$ns node]
set n(n8) [$ns node]
set n(n9) [$ns node]
set n(n10) [$ns node]
set n(n11) [$ns node]
set n(n12) [$ns node]
set n(n13) [$ns node]
set n(n14) [$ns node]
set n(n15) [$ns node]
set n(n16) [$ns node]
set n(n17) [$ns node]
set n(n18) [$ns node]
set n(n19) [$ns node]
set n(n20) [$ns node]
set n(n21) [$ns node]
set n(n22) [$ns node]
set n(n23) [$ns node]
set n(n24) [$ns node]
set n(n25) [$ns node]
set n(n26) [$ns node]
set n(n27) [$ns node]
set n(n28) [$ns node]
set n(n29) [$ns node]
set n(n30) [$ns node]
set n(n31) [$ns node]
set n(n32) [$ns node]
set n(n33) [$ns node]
set n(n34) [$ns node]
set n(n35) [$ns node]
set n(n36) [$ns node]
set n(n37) [$ns node]
set n(n38) [$ns node]
set n(n39) [$ns node]
set n(n40) [$ns node]
set n(n41) [$ns node]
set n(n42) [$ns node]
set n(n43) [$ns node]
set n(n44) [$ns node]
set n(n45) [$ns node]
set n(n46) [$ns node]
set n(n47) [$ns node]
set n(n48) [$ns node]
set n(n49) [$ns node]
set n(n50) [$ns node]
set n(n51) [$ns node]
set n(n52) [$ns node]
set n(n53) [$ns node]
set n(n54) [$ns node]
set n(n55) [$ns node]
set n(n56) [$ns node]
set n(n57) [$ns node]
set n(n58) [$ns node]
set n(n59) [$ns node]
set n(n60) [$ns node]
set n(n61) [$ns node]
set n(n62) [$ns node]
$ns duplex-link $n(n0) $n(n1) 500000 0.001343 DropTail
set q [[$ns link $n(n0) $n(n1)] queue]
$q set limit_ 51
set qm(n0->n1) [$ns makeflowmon Fid]; $qm(n0->n1) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n0) $n(n1)] $qm(n0->n1)
set q [[$ns link $n(n1) $n(n0)] queue]
$q set limit_ 51
set qm(n1->n0) [$ns makeflowmon Fid]; $qm(n1->n0) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n1) $n(n0)] $qm(n1->n0)
$ns duplex-link $n(n0) $n(n2) 500000 0.008475 DropTail
set q [[$ns link $n(n0) $n(n2)] queue]
$q set limit_ 51
set qm(n0->n2) [$ns makeflowmon Fid]; $qm(n0->n2) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n0) $n(n2)] $qm(n0->n2)
set q [[$ns link $n(n2) $n(n0)] queue]
$q set limit_ 51
set qm(n2->n0) [$ns makeflowmon Fid]; $qm(n2->n0) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n2) $n(n0)] $qm(n2->n0)
$ns duplex-link $n(n1) $n(n3) 500000 0.007638 DropTail
set q [[$ns link $n(n1) $n(n3)] queue]
$q set limit_ 51
set qm(n1->n3) [$ns makeflowmon Fid]; $qm(n1->n3) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n1) $n(n3)] $qm(n1->n3)
set q [[$ns link $n(n3) $n(n1)] queue]
$q set limit_ 51
set qm(n3->n1) [$ns makeflowmon Fid]; $qm(n3->n1) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n3) $n(n1)] $qm(n3->n1)
$ns duplex-link $n(n1) $n(n4) 500000 0.00255 DropTail
set q [[$ns link $n(n1) $n(n4)] queue]
$q set limit_ 51
set qm(n1->n4) [$ns makeflowmon Fid]; $qm(n1->n4) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n1) $n(n4)] $qm(n1->n4)
set q [[$ns link $n(n4) $n(n1)] queue]
$q set limit_ 51
set qm(n4->n1) [$ns makeflowmon Fid]; $qm(n4->n1) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n4) $n(n1)] $qm(n4->n1)
$ns duplex-link $n(n2) $n(n5) 500000 0.004954 DropTail
set q [[$ns link $n(n2) $n(n5)] queue]
$q set limit_ 51
set qm(n2->n5) [$ns makeflowmon Fid]; $qm(n2->n5) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n2) $n(n5)] $qm(n2->n5)
set q [[$ns link $n(n5) $n(n2)] queue]
$q set limit_ 51
set qm(n5->n2) [$ns makeflowmon Fid]; $qm(n5->n2) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n5) $n(n2)] $qm(n5->n2)
$ns duplex-link $n(n2) $n(n6) 500000 0.004495 DropTail
set q [[$ns link $n(n2) $n(n6)] queue]
$q set limit_ 51
set qm(n2->n6) [$ns makeflowmon Fid]; $qm(n2->n6) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n2) $n(n6)] $qm(n2->n6)
set q [[$ns link $n(n6) $n(n2)] queue]
$q set limit_ 51
set qm(n6->n2) [$ns makeflowmon Fid]; $qm(n6->n2) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n6) $n(n2)] $qm(n6->n2)
$ns duplex-link $n(n3) $n(n7) 500000 0.006516 DropTail
set q [[$ns link $n(n3) $n(n7)] queue]
$q set limit_ 51
set qm(n3->n7) [$ns makeflowmon Fid]; $qm(n3->n7) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n3) $n(n7)] $qm(n3->n7)
set q [[$ns link $n(n7) $n(n3)] queue]
$q set limit_ 51
set qm(n7->n3) [$ns makeflowmon Fid]; $qm(n7->n3) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n7) $n(n3)] $qm(n7->n3)
$ns duplex-link $n(n3) $n(n8) 500000 0.007888 DropTail
set q [[$ns link $n(n3) $n(n8)] queue]
$q set limit_ 51
set qm(n3->n8) [$ns makeflowmon Fid]; $qm(n3->n8) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n3) $n(n8)] $qm(n3->n8)
set q [[$ns link $n(n8) $n(n3)] queue]
$q set limit_ 51
set qm(n8->n3) [$ns makeflowmon Fid]; $qm(n8->n3) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n8) $n(n3)] $qm(n8->n3)
$ns duplex-link $n(n4) $n(n9) 500000 0.000938 DropTail
set q [[$ns link $n(n4) $n(n9)] queue]
$q set limit_ 51
set qm(n4->n9) [$ns makeflowmon Fid]; $qm(n4->n9) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n4) $n(n9)] $qm(n4->n9)
set q [[$ns link $n(n9) $n(n4)] queue]
$q set limit_ 51
set qm(n9->n4) [$ns makeflowmon Fid]; $qm(n9->n4) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n9) $n(n4)] $qm(n9->n4)
$ns duplex-link $n(n4) $n(n10) 500000 0.000283 DropTail
set q [[$ns link $n(n4) $n(n10)] queue]
$q set limit_ 51
set qm(n4->n10) [$ns makeflowmon Fid]; $qm(n4->n10) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n4) $n(n10)] $qm(n4->n10)
set q [[$ns link $n(n10) $n(n4)] queue]
$q set limit_ 51
set qm(n10->n4) [$ns makeflowmon Fid]; $qm(n10->n4) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n10) $n(n4)] $qm(n10->n4)
$ns duplex-link $n(n5) $n(n11) 500000 0.008358 DropTail
set q [[$ns link $n(n5) $n(n11)] queue]
$q set limit_ 51
set qm(n5->n11) [$ns makeflowmon Fid]; $qm(n5->n11) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n5) $n(n11)] $qm(n5->n11)
set q [[$ns link $n(n11) $n(n5)] queue]
$q set limit_ 51
set qm(n11->n5) [$ns makeflowmon Fid]; $qm(n11->n5) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n11) $n(n5)] $qm(n11->n5)
$ns duplex-link $n(n5) $n(n12) 500000 0.004328 DropTail
set q [[$ns link $n(n5) $n(n12)] queue]
$q set limit_ 51
set qm(n5->n12) [$ns makeflowmon Fid]; $qm(n5->n12) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n5) $n(n12)] $qm(n5->n12)
set q [[$ns link $n(n12) $n(n5)] queue]
$q set limit_ 51
set qm(n12->n5) [$ns makeflowmon Fid]; $qm(n12->n5) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n12) $n(n5)] $qm(n12->n5)
$ns duplex-link $n(n6) $n(n13) 500000 0.007623 DropTail
set q [[$ns link $n(n6) $n(n13)] queue]
$q set limit_ 51
set qm(n6->n13) [$ns makeflowmon Fid]; $qm(n6->n13) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n6) $n(n13)] $qm(n6->n13)
set q [[$ns link $n(n13) $n(n6)] queue]
$q set limit_ 51
set qm(n13->n6) [$ns makeflowmon Fid]; $qm(n13->n6) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n13) $n(n6)] $qm(n13->n6)
$ns duplex-link $n(n6) $n(n14) 500000 2.1e-05 DropTail
set q [[$ns link $n(n6) $n(n14)] queue]
$q set limit_ 51
set qm(n6->n14) [$ns makeflowmon Fid]; $qm(n6->n14) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n6) $n(n14)] $qm(n6->n14)
set q [[$ns link $n(n14) $n(n6)] queue]
$q set limit_ 51
set qm(n14->n6) [$ns makeflowmon Fid]; $qm(n14->n6) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n14) $n(n6)] $qm(n14->n6)
$ns duplex-link $n(n7) $n(n15) 500000 0.004454 DropTail
set q [[$ns link $n(n7) $n(n15)] queue]
$q set limit_ 51
set qm(n7->n15) [$ns makeflowmon Fid]; $qm(n7->n15) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n7) $n(n15)] $qm(n7->n15)
set q [[$ns link $n(n15) $n(n7)] queue]
$q set limit_ 51
set qm(n15->n7) [$ns makeflowmon Fid]; $qm(n15->n7) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n15) $n(n7)] $qm(n15->n7)
$ns duplex-link $n(n7) $n(n16) 500000 0.007216 DropTail
set q [[$ns link $n(n7) $n(n16)] queue]
$q set limit_ 51
set qm(n7->n16) [$ns makeflowmon Fid]; $qm(n7->n16) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n7) $n(n16)] $qm(n7->n16)
set q [[$ns link $n(n16) $n(n7)] queue]
$q set limit_ 51
set qm(n16->n7) [$ns makeflowmon Fid]; $qm(n16->n7) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n16) $n(n7)] $qm(n16->n7)
$ns duplex-link $n(n8) $n(n17) 500000 0.002287 DropTail
set q [[$ns link $n(n8) $n(n17)] queue]
$q set limit_ 51
set qm(n8->n17) [$ns makeflowmon Fid]; $qm(n8->n17) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n8) $n(n17)] $qm(n8->n17)
set q [[$ns link $n(n17) $n(n8)] queue]
$q set limit_ 51
set qm(n17->n8) [$ns makeflowmon Fid]; $qm(n17->n8) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n17) $n(n8)] $qm(n17->n8)
$ns duplex-link $n(n8) $n(n18) 500000 0.009453 DropTail
set q [[$ns link $n(n8) $n(n18)] queue]
$q set limit_ 51
set qm(n8->n18) [$ns makeflowmon Fid]; $qm(n8->n18) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n8) $n(n18)] $qm(n8->n18)
set q [[$ns link $n(n18) $n(n8)] queue]
$q set limit_ 51
set qm(n18->n8) [$ns makeflowmon Fid]; $qm(n18->n8) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n18) $n(n8)] $qm(n18->n8)
$ns duplex-link $n(n9) $n(n19) 500000 0.009015 DropTail
set q [[$ns link $n(n9) $n(n19)] queue]
$q set limit_ 51
set qm(n9->n19) [$ns makeflowmon Fid]; $qm(n9->n19) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n9) $n(n19)] $qm(n9->n19)
set q [[$ns link $n(n19) $n(n9)] queue]
$q set limit_ 51
set qm(n19->n9) [$ns makeflowmon Fid]; $qm(n19->n9) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n19) $n(n9)] $qm(n19->n9)
$ns duplex-link $n(n9) $n(n20) 500000 0.000305 DropTail
set q [[$ns link $n(n9) $n(n20)] queue]
$q set limit_ 51
set qm(n9->n20) [$ns makeflowmon Fid]; $qm(n9->n20) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n9) $n(n20)] $qm(n9->n20)
set q [[$ns link $n(n20) $n(n9)] queue]
$q set limit_ 51
set qm(n20->n9) [$ns makeflowmon Fid]; $qm(n20->n9) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n20) $n(n9)] $qm(n20->n9)
$ns duplex-link $n(n10) $n(n21) 500000 0.000254 DropTail
set q [[$ns link $n(n10) $n(n21)] queue]
$q set limit_ 51
set qm(n10->n21) [$ns makeflowmon Fid]; $qm(n10->n21) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n10) $n(n21)] $qm(n10->n21)
set q [[$ns link $n(n21) $n(n10)] queue]
$q set limit_ 51
set qm(n21->n10) [$ns makeflowmon Fid]; $qm(n21->n10) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n21) $n(n10)] $qm(n21->n10)
$ns duplex-link $n(n10) $n(n22) 500000 0.005414 DropTail
set q [[$ns link $n(n10) $n(n22)] queue]
$q set limit_ 51
set qm(n10->n22) [$ns makeflowmon Fid]; $qm(n10->n22) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n10) $n(n22)] $qm(n10->n22)
set q [[$ns link $n(n22) $n(n10)] queue]
$q set limit_ 51
set qm(n22->n10) [$ns makeflowmon Fid]; $qm(n22->n10) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n22) $n(n10)] $qm(n22->n10)
$ns duplex-link $n(n11) $n(n23) 500000 0.009392 DropTail
set q [[$ns link $n(n11) $n(n23)] queue]
$q set limit_ 51
set qm(n11->n23) [$ns makeflowmon Fid]; $qm(n11->n23) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n11) $n(n23)] $qm(n11->n23)
set q [[$ns link $n(n23) $n(n11)] queue]
$q set limit_ 51
set qm(n23->n11) [$ns makeflowmon Fid]; $qm(n23->n11) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n23) $n(n11)] $qm(n23->n11)
$ns duplex-link $n(n11) $n(n24) 500000 0.003812 DropTail
set q [[$ns link $n(n11) $n(n24)] queue]
$q set limit_ 51
set qm(n11->n24) [$ns makeflowmon Fid]; $qm(n11->n24) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n11) $n(n24)] $qm(n11->n24)
set q [[$ns link $n(n24) $n(n11)] queue]
$q set limit_ 51
set qm(n24->n11) [$ns makeflowmon Fid]; $qm(n24->n11) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n24) $n(n11)] $qm(n24->n11)
$ns duplex-link $n(n12) $n(n25) 500000 0.002166 DropTail
set q [[$ns link $n(n12) $n(n25)] queue]
$q set limit_ 51
set qm(n12->n25) [$ns makeflowmon Fid]; $qm(n12->n25) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n12) $n(n25)] $qm(n12->n25)
set q [[$ns link $n(n25) $n(n12)] queue]
$q set limit_ 51
set qm(n25->n12) [$ns makeflowmon Fid]; $qm(n25->n12) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n25) $n(n12)] $qm(n25->n12)
$ns duplex-link $n(n12) $n(n26) 500000 0.004221 DropTail
set q [[$ns link $n(n12) $n(n26)] queue]
$q set limit_ 51
set qm(n12->n26) [$ns makeflowmon Fid]; $qm(n12->n26) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n12) $n(n26)] $qm(n12->n26)
set q [[$ns link $n(n26) $n(n12)] queue]
$q set limit_ 51
set qm(n26->n12) [$ns makeflowmon Fid]; $qm(n26->n12) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n26) $n(n12)] $qm(n26->n12)
$ns duplex-link $n(n13) $n(n27) 500000 0.00029 DropTail
set q [[$ns link $n(n13) $n(n27)] queue]
$q set limit_ 51
set qm(n13->n27) [$ns makeflowmon Fid]; $qm(n13->n27) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n13) $n(n27)] $qm(n13->n27)
set q [[$ns link $n(n27) $n(n13)] queue]
$q set limit_ 51
set qm(n27->n13) [$ns makeflowmon Fid]; $qm(n27->n13) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n27) $n(n13)] $qm(n27->n13)
$ns duplex-link $n(n13) $n(n28) 500000 0.002217 DropTail
set q [[$ns link $n(n13) $n(n28)] queue]
$q set limit_ 51
set qm(n13->n28) [$ns makeflowmon Fid]; $qm(n13->n28) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n13) $n(n28)] $qm(n13->n28)
set q [[$ns link $n(n28) $n(n13)] queue]
$q set limit_ 51
set qm(n28->n13) [$ns makeflowmon Fid]; $qm(n28->n13) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n28) $n(n13)] $qm(n28->n13)
$ns duplex-link $n(n14) $n(n29) 500000 0.004379 DropTail
set q [[$ns link $n(n14) $n(n29)] queue]
$q set limit_ 51
set qm(n14->n29) [$ns makeflowmon Fid]; $qm(n14->n29) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n14) $n(n29)] $qm(n14->n29)
set q [[$ns link $n(n29) $n(n14)] queue]
$q set limit_ 51
set qm(n29->n14) [$ns makeflowmon Fid]; $qm(n29->n14) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n29) $n(n14)] $qm(n29->n14)
$ns duplex-link $n(n14) $n(n30) 500000 0.004958 DropTail
set q [[$ns link $n(n14) $n(n30)] queue]
$q set limit_ 51
set qm(n14->n30) [$ns makeflowmon Fid]; $qm(n14->n30) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n14) $n(n30)] $qm(n14->n30)
set q [[$ns link $n(n30) $n(n14)] queue]
$q set limit_ 51
set qm(n30->n14) [$ns makeflowmon Fid]; $qm(n30->n14) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n30) $n(n14)] $qm(n30->n14)
$ns duplex-link $n(n15) $n(n31) 500000 0.002331 DropTail
set q [[$ns link $n(n15) $n(n31)] queue]
$q set limit_ 51
set qm(n15->n31) [$ns makeflowmon Fid]; $qm(n15->n31) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n15) $n(n31)] $qm(n15->n31)
set q [[$ns link $n(n31) $n(n15)] queue]
$q set limit_ 51
set qm(n31->n15) [$ns makeflowmon Fid]; $qm(n31->n15) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n31) $n(n15)] $qm(n31->n15)
$ns duplex-link $n(n15) $n(n32) 500000 0.002308 DropTail
set q [[$ns link $n(n15) $n(n32)] queue]
$q set limit_ 51
set qm(n15->n32) [$ns makeflowmon Fid]; $qm(n15->n32) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n15) $n(n32)] $qm(n15->n32)
set q [[$ns link $n(n32) $n(n15)] queue]
$q set limit_ 51
set qm(n32->n15) [$ns makeflowmon Fid]; $qm(n32->n15) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n32) $n(n15)] $qm(n32->n15)
$ns duplex-link $n(n16) $n(n33) 500000 0.002188 DropTail
set q [[$ns link $n(n16) $n(n33)] queue]
$q set limit_ 51
set qm(n16->n33) [$ns makeflowmon Fid]; $qm(n16->n33) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n16) $n(n33)] $qm(n16->n33)
set q [[$ns link $n(n33) $n(n16)] queue]
$q set limit_ 51
set qm(n33->n16) [$ns makeflowmon Fid]; $qm(n33->n16) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n33) $n(n16)] $qm(n33->n16)
$ns duplex-link $n(n16) $n(n34) 500000 0.004596 DropTail
set q [[$ns link $n(n16) $n(n34)] queue]
$q set limit_ 51
set qm(n16->n34) [$ns makeflowmon Fid]; $qm(n16->n34) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n16) $n(n34)] $qm(n16->n34)
set q [[$ns link $n(n34) $n(n16)] queue]
$q set limit_ 51
set qm(n34->n16) [$ns makeflowmon Fid]; $qm(n34->n16) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n34) $n(n16)] $qm(n34->n16)
$ns duplex-link $n(n17) $n(n35) 500000 0.002898 DropTail
set q [[$ns link $n(n17) $n(n35)] queue]
$q set limit_ 51
set qm(n17->n35) [$ns makeflowmon Fid]; $qm(n17->n35) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n17) $n(n35)] $qm(n17->n35)
set q [[$ns link $n(n35) $n(n17)] queue]
$q set limit_ 51
set qm(n35->n17) [$ns makeflowmon Fid]; $qm(n35->n17) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n35) $n(n17)] $qm(n35->n17)
$ns duplex-link $n(n17) $n(n36) 500000 0.000214 DropTail
set q [[$ns link $n(n17) $n(n36)] queue]
$q set limit_ 51
set qm(n17->n36) [$ns makeflowmon Fid]; $qm(n17->n36) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n17) $n(n36)] $qm(n17->n36)
set q [[$ns link $n(n36) $n(n17)] queue]
$q set limit_ 51
set qm(n36->n17) [$ns makeflowmon Fid]; $qm(n36->n17) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n36) $n(n17)] $qm(n36->n17)
$ns duplex-link $n(n18) $n(n37) 500000 0.008376 DropTail
set q [[$ns link $n(n18) $n(n37)] queue]
$q set limit_ 51
set qm(n18->n37) [$ns makeflowmon Fid]; $qm(n18->n37) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n18) $n(n37)] $qm(n18->n37)
set q [[$ns link $n(n37) $n(n18)] queue]
$q set limit_ 51
set qm(n37->n18) [$ns makeflowmon Fid]; $qm(n37->n18) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n37) $n(n18)] $qm(n37->n18)
$ns duplex-link $n(n18) $n(n38) 500000 0.005565 DropTail
set q [[$ns link $n(n18) $n(n38)] queue]
$q set limit_ 51
set qm(n18->n38) [$ns makeflowmon Fid]; $qm(n18->n38) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n18) $n(n38)] $qm(n18->n38)
set q [[$ns link $n(n38) $n(n18)] queue]
$q set limit_ 51
set qm(n38->n18) [$ns makeflowmon Fid]; $qm(n38->n18) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n38) $n(n18)] $qm(n38->n18)
$ns duplex-link $n(n19) $n(n39) 500000 0.006423 DropTail
set q [[$ns link $n(n19) $n(n39)] queue]
$q set limit_ 51
set qm(n19->n39) [$ns makeflowmon Fid]; $qm(n19->n39) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n19) $n(n39)] $qm(n19->n39)
set q [[$ns link $n(n39) $n(n19)] queue]
$q set limit_ 51
set qm(n39->n19) [$ns makeflowmon Fid]; $qm(n39->n19) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n39) $n(n19)] $qm(n39->n19)
$ns duplex-link $n(n19) $n(n40) 500000 0.001859 DropTail
set q [[$ns link $n(n19) $n(n40)] queue]
$q set limit_ 51
set qm(n19->n40) [$ns makeflowmon Fid]; $qm(n19->n40) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n19) $n(n40)] $qm(n19->n40)
set q [[$ns link $n(n40) $n(n19)] queue]
$q set limit_ 51
set qm(n40->n19) [$ns makeflowmon Fid]; $qm(n40->n19) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n40) $n(n19)] $qm(n40->n19)
$ns duplex-link $n(n20) $n(n41) 500000 0.009926 DropTail
set q [[$ns link $n(n20) $n(n41)] queue]
$q set limit_ 51
set qm(n20->n41) [$ns makeflowmon Fid]; $qm(n20->n41) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n20) $n(n41)] $qm(n20->n41)
set q [[$ns link $n(n41) $n(n20)] queue]
$q set limit_ 51
set qm(n41->n20) [$ns makeflowmon Fid]; $qm(n41->n20) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n41) $n(n20)] $qm(n41->n20)
$ns duplex-link $n(n20) $n(n42) 500000 0.0086 DropTail
set q [[$ns link $n(n20) $n(n42)] queue]
$q set limit_ 51
set qm(n20->n42) [$ns makeflowmon Fid]; $qm(n20->n42) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n20) $n(n42)] $qm(n20->n42)
set q [[$ns link $n(n42) $n(n20)] queue]
$q set limit_ 51
set qm(n42->n20) [$ns makeflowmon Fid]; $qm(n42->n20) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n42) $n(n20)] $qm(n42->n20)
$ns duplex-link $n(n21) $n(n43) 500000 0.001209 DropTail
set q [[$ns link $n(n21) $n(n43)] queue]
$q set limit_ 51
set qm(n21->n43) [$ns makeflowmon Fid]; $qm(n21->n43) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n21) $n(n43)] $qm(n21->n43)
set q [[$ns link $n(n43) $n(n21)] queue]
$q set limit_ 51
set qm(n43->n21) [$ns makeflowmon Fid]; $qm(n43->n21) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n43) $n(n21)] $qm(n43->n21)
$ns duplex-link $n(n21) $n(n44) 500000 0.003327 DropTail
set q [[$ns link $n(n21) $n(n44)] queue]
$q set limit_ 51
set qm(n21->n44) [$ns makeflowmon Fid]; $qm(n21->n44) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n21) $n(n44)] $qm(n21->n44)
set q [[$ns link $n(n44) $n(n21)] queue]
$q set limit_ 51
set qm(n44->n21) [$ns makeflowmon Fid]; $qm(n44->n21) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n44) $n(n21)] $qm(n44->n21)
$ns duplex-link $n(n22) $n(n45) 500000 0.007215 DropTail
set q [[$ns link $n(n22) $n(n45)] queue]
$q set limit_ 51
set qm(n22->n45) [$ns makeflowmon Fid]; $qm(n22->n45) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n22) $n(n45)] $qm(n22->n45)
set q [[$ns link $n(n45) $n(n22)] queue]
$q set limit_ 51
set qm(n45->n22) [$ns makeflowmon Fid]; $qm(n45->n22) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n45) $n(n22)] $qm(n45->n22)
$ns duplex-link $n(n22) $n(n46) 500000 0.007112 DropTail
set q [[$ns link $n(n22) $n(n46)] queue]
$q set limit_ 51
set qm(n22->n46) [$ns makeflowmon Fid]; $qm(n22->n46) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n22) $n(n46)] $qm(n22->n46)
set q [[$ns link $n(n46) $n(n22)] queue]
$q set limit_ 51
set qm(n46->n22) [$ns makeflowmon Fid]; $qm(n46->n22) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n46) $n(n22)] $qm(n46->n22)
$ns duplex-link $n(n23) $n(n47) 500000 0.009365 DropTail
set q [[$ns link $n(n23) $n(n47)] queue]
$q set limit_ 51
set qm(n23->n47) [$ns makeflowmon Fid]; $qm(n23->n47) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n23) $n(n47)] $qm(n23->n47)
set q [[$ns link $n(n47) $n(n23)] queue]
$q set limit_ 51
set qm(n47->n23) [$ns makeflowmon Fid]; $qm(n47->n23) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n47) $n(n23)] $qm(n47->n23)
$ns duplex-link $n(n23) $n(n48) 500000 0.004221 DropTail
set q [[$ns link $n(n23) $n(n48)] queue]
$q set limit_ 51
set qm(n23->n48) [$ns makeflowmon Fid]; $qm(n23->n48) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n23) $n(n48)] $qm(n23->n48)
set q [[$ns link $n(n48) $n(n23)] queue]
$q set limit_ 51
set qm(n48->n23) [$ns makeflowmon Fid]; $qm(n48->n23) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n48) $n(n23)] $qm(n48->n23)
$ns duplex-link $n(n24) $n(n49) 500000 0.008301 DropTail
set q [[$ns link $n(n24) $n(n49)] queue]
$q set limit_ 51
set qm(n24->n49) [$ns makeflowmon Fid]; $qm(n24->n49) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n24) $n(n49)] $qm(n24->n49)
set q [[$ns link $n(n49) $n(n24)] queue]
$q set limit_ 51
set qm(n49->n24) [$ns makeflowmon Fid]; $qm(n49->n24) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n49) $n(n24)] $qm(n49->n24)
$ns duplex-link $n(n24) $n(n50) 500000 0.006703 DropTail
set q [[$ns link $n(n24) $n(n50)] queue]
$q set limit_ 51
set qm(n24->n50) [$ns makeflowmon Fid]; $qm(n24->n50) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n24) $n(n50)] $qm(n24->n50)
set q [[$ns link $n(n50) $n(n24)] queue]
$q set limit_ 51
set qm(n50->n24) [$ns makeflowmon Fid]; $qm(n50->n24) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n50) $n(n24)] $qm(n50->n24)
$ns duplex-link $n(n25) $n(n51) 500000 0.003033 DropTail
set q [[$ns link $n(n25) $n(n51)] queue]
$q set limit_ 51
set qm(n25->n51) [$ns makeflowmon Fid]; $qm(n25->n51) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n25) $n(n51)] $qm(n25->n51)
set q [[$ns link $n(n51) $n(n25)] queue]
$q set limit_ 51
set qm(n51->n25) [$ns makeflowmon Fid]; $qm(n51->n25) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n51) $n(n25)] $qm(n51->n25)
$ns duplex-link $n(n25) $n(n52) 500000 0.005876 DropTail
set q [[$ns link $n(n25) $n(n52)] queue]
$q set limit_ 51
set qm(n25->n52) [$ns makeflowmon Fid]; $qm(n25->n52) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n25) $n(n52)] $qm(n25->n52)
set q [[$ns link $n(n52) $n(n25)] queue]
$q set limit_ 51
set qm(n52->n25) [$ns makeflowmon Fid]; $qm(n52->n25) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n52) $n(n25)] $qm(n52->n25)
$ns duplex-link $n(n26) $n(n53) 500000 0.008825 DropTail
set q [[$ns link $n(n26) $n(n53)] queue]
$q set limit_ 51
set qm(n26->n53) [$ns makeflowmon Fid]; $qm(n26->n53) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n26) $n(n53)] $qm(n26->n53)
set q [[$ns link $n(n53) $n(n26)] queue]
$q set limit_ 51
set qm(n53->n26) [$ns makeflowmon Fid]; $qm(n53->n26) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n53) $n(n26)] $qm(n53->n26)
$ns duplex-link $n(n26) $n(n54) 500000 0.008462 DropTail
set q [[$ns link $n(n26) $n(n54)] queue]
$q set limit_ 51
set qm(n26->n54) [$ns makeflowmon Fid]; $qm(n26->n54) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n26) $n(n54)] $qm(n26->n54)
set q [[$ns link $n(n54) $n(n26)] queue]
$q set limit_ 51
set qm(n54->n26) [$ns makeflowmon Fid]; $qm(n54->n26) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n54) $n(n26)] $qm(n54->n26)
$ns duplex-link $n(n27) $n(n55) 500000 0.005053 DropTail
set q [[$ns link $n(n27) $n(n55)] queue]
$q set limit_ 51
set qm(n27->n55) [$ns makeflowmon Fid]; $qm(n27->n55) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n27) $n(n55)] $qm(n27->n55)
set q [[$ns link $n(n55) $n(n27)] queue]
$q set limit_ 51
set qm(n55->n27) [$ns makeflowmon Fid]; $qm(n55->n27) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n55) $n(n27)] $qm(n55->n27)
$ns duplex-link $n(n27) $n(n56) 500000 0.00589 DropTail
set q [[$ns link $n(n27) $n(n56)] queue]
$q set limit_ 51
set qm(n27->n56) [$ns makeflowmon Fid]; $qm(n27->n56) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n27) $n(n56)] $qm(n27->n56)
set q [[$ns link $n(n56) $n(n27)] queue]
$q set limit_ 51
set qm(n56->n27) [$ns makeflowmon Fid]; $qm(n56->n27) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n56) $n(n27)] $qm(n56->n27)
$ns duplex-link $n(n28) $n(n57) 500000 0.000345 DropTail
set q [[$ns link $n(n28) $n(n57)] queue]
$q set limit_ 51
set qm(n28->n57) [$ns makeflowmon Fid]; $qm(n28->n57) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n28) $n(n57)] $qm(n28->n57)
set q [[$ns link $n(n57) $n(n28)] queue]
$q set limit_ 51
set qm(n57->n28) [$ns makeflowmon Fid]; $qm(n57->n28) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n57) $n(n28)] $qm(n57->n28)
$ns duplex-link $n(n28) $n(n58) 500000 0.002427 DropTail
set q [[$ns link $n(n28) $n(n58)] queue]
$q set limit_ 51
set qm(n28->n58) [$ns makeflowmon Fid]; $qm(n28->n58) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n28) $n(n58)] $qm(n28->n58)
set q [[$ns link $n(n58) $n(n28)] queue]
$q set limit_ 51
set qm(n58->n28) [$ns makeflowmon Fid]; $qm(n58->n28) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n58) $n(n28)] $qm(n58->n28)
$ns duplex-link $n(n29) $n(n59) 500000 0.007974 DropTail
set q [[$ns link $n(n29) $n(n59)] queue]
$q set limit_ 51
set qm(n29->n59) [$ns makeflowmon Fid]; $qm(n29->n59) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n29) $n(n59)] $qm(n29->n59)
set q [[$ns link $n(n59) $n(n29)] queue]
$q set limit_ 51
set qm(n59->n29) [$ns makeflowmon Fid]; $qm(n59->n29) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n59) $n(n29)] $qm(n59->n29)
$ns duplex-link $n(n29) $n(n60) 500000 0.004143 DropTail
set q [[$ns link $n(n29) $n(n60)] queue]
$q set limit_ 51
set qm(n29->n60) [$ns makeflowmon Fid]; $qm(n29->n60) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n29) $n(n60)] $qm(n29->n60)
set q [[$ns link $n(n60) $n(n29)] queue]
$q set limit_ 51
set qm(n60->n29) [$ns makeflowmon Fid]; $qm(n60->n29) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n60) $n(n29)] $qm(n60->n29)
$ns duplex-link $n(n30) $n(n61) 500000 0.00173 DropTail
set q [[$ns link $n(n30) $n(n61)] queue]
$q set limit_ 51
set qm(n30->n61) [$ns makeflowmon Fid]; $qm(n30->n61) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n30) $n(n61)] $qm(n30->n61)
set q [[$ns link $n(n61) $n(n30)] queue]
$q set limit_ 51
set qm(n61->n30) [$ns makeflowmon Fid]; $qm(n61->n30) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n61) $n(n30)] $qm(n61->n30)
$ns duplex-link $n(n30) $n(n62) 500000 0.005488 DropTail
set q [[$ns link $n(n30) $n(n62)] queue]
$q set limit_ 51
set qm(n30->n62) [$ns makeflowmon Fid]; $qm(n30->n62) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n30) $n(n62)] $qm(n30->n62)
set q [[$ns link $n(n62) $n(n30)] queue]
$q set limit_ 51
set qm(n62->n30) [$ns makeflowmon Fid]; $qm(n62->n30) set-pkts-integrator [new Integrator]
$ns attach-fmon [$ns link $n(n62) $n(n30)] $qm(n62->n30)
set a [new Agent/TCP/Vegas]
$a set packetSize_ 40
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
$ns attach-agent $n(n0) $a; $ns attach-agent $n(n47) $s; $ns connect $a $s
set agent(unicast) $a; set sink(unicast) $s
set app(unicast) [new Application/FTP]; $app(unicast) attach-agent $a
$ns at 0 "$app(unicast) start"
set tf(unicast) [open {./unicast.ns2trace} w]
$a attach $tf(unicast); $a trace cwnd_; $a trace ssthresh_; $a trace srtt_; $a trace rttvar_; $a trace backoff_
set ns_last_sample 0; set ns_sample_k 0
proc sample {} {
  global ns agent sink qm ns_last_sample ns_sample_k last_bytes last_sent
  set now [$ns now]; set dt [expr {$now - $ns_last_sample}]
  if {$dt <= 0} { return }
  if {$now > 0} {
    set b [$sink(unicast) set bytes_]; if {![info exists last_bytes(unicast)]} { set last_bytes(unicast) 0 }
    puts "CCSIM-NS2-SAMPLE $now rate unicast [expr {($b - $last_bytes(unicast)) * 8.0 * 40 / 80 / $dt}]"
    set last_bytes(unicast) $b
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
  set snapshot($tag,unicast) [list [$sink(unicast) set bytes_] [$agent(unicast) set nrexmit_] [$agent(unicast) set nrexmitpack_] [$agent(unicast) set ndatapack_]]
  [$qm(n0->n1) get-pkts-integrator] newpoint [$ns now] [$qm(n0->n1) set pkts_]
  set snapshot($tag,n0->n1) [list [$qm(n0->n1) set bdepartures_] [$qm(n0->n1) set pdepartures_] [$qm(n0->n1) set pdrops_] [[$qm(n0->n1) get-pkts-integrator] set sum_] [$qm(n0->n1) set pkts_]]
  [$qm(n1->n0) get-pkts-integrator] newpoint [$ns now] [$qm(n1->n0) set pkts_]
  set snapshot($tag,n1->n0) [list [$qm(n1->n0) set bdepartures_] [$qm(n1->n0) set pdepartures_] [$qm(n1->n0) set pdrops_] [[$qm(n1->n0) get-pkts-integrator] set sum_] [$qm(n1->n0) set pkts_]]
  [$qm(n0->n2) get-pkts-integrator] newpoint [$ns now] [$qm(n0->n2) set pkts_]
  set snapshot($tag,n0->n2) [list [$qm(n0->n2) set bdepartures_] [$qm(n0->n2) set pdepartures_] [$qm(n0->n2) set pdrops_] [[$qm(n0->n2) get-pkts-integrator] set sum_] [$qm(n0->n2) set pkts_]]
  [$qm(n2->n0) get-pkts-integrator] newpoint [$ns now] [$qm(n2->n0) set pkts_]
  set snapshot($tag,n2->n0) [list [$qm(n2->n0) set bdepartures_] [$qm(n2->n0) set pdepartures_] [$qm(n2->n0) set pdrops_] [[$qm(n2->n0) get-pkts-integrator] set sum_] [$qm(n2->n0) set pkts_]]
  [$qm(n1->n3) get-pkts-integrator] newpoint [$ns now] [$qm(n1->n3) set pkts_]
  set snapshot($tag,n1->n3) [list [$qm(n1->n3) set bdepartures_] [$qm(n1->n3) set pdepartures_] [$qm(n1->n3) set pdrops_] [[$qm(n1->n3) get-pkts-integrator] set sum_] [$qm(n1->n3) set pkts_]]
  [$qm(n3->n1) get-pkts-integrator] newpoint [$ns now] [$qm(n3->n1) set pkts_]
  set snapshot($tag,n3->n1) [list [$qm(n3->n1) set bdepartures_] [$qm(n3->n1) set pdepartures_] [$qm(n3->n1) set pdrops_] [[$qm(n3->n1) get-pkts-integrator] set sum_] [$qm(n3->n1) set pkts_]]
  [$qm(n1->n4) get-pkts-integrator] newpoint [$ns now] [$qm(n1->n4) set pkts_]
  set snapshot($tag,n1->n4) [list [$qm(n1->n4) set bdepartures_] [$qm(n1->n4) set pdepartures_] [$qm(n1->n4) set pdrops_] [[$qm(n1->n4) get-pkts-integrator] set sum_] [$qm(n1->n4) set pkts_]]
  [$qm(n4->n1) get-pkts-integrator] newpoint [$ns now] [$qm(n4->n1) set pkts_]
  set snapshot($tag,n4->n1) [list [$qm(n4->n1) set bdepartures_] [$qm(n4->n1) set pdepartures_] [$qm(n4->n1) set pdrops_] [[$qm(n4->n1) get-pkts-integrator] set sum_] [$qm(n4->n1) set pkts_]]
  [$qm(n2->n5) get-pkts-integrator] newpoint [$ns now] [$qm(n2->n5) set pkts_]
  set snapshot($tag,n2->n5) [list [$qm(n2->n5) set bdepartures_] [$qm(n2->n5) set pdepartures_] [$qm(n2->n5) set pdrops_] [[$qm(n2->n5) get-pkts-integrator] set sum_] [$qm(n2->n5) set pkts_]]
  [$qm(n5->n2) get-pkts-integrator] newpoint [$ns now] [$qm(n5->n2) set pkts_]
  set snapshot($tag,n5->n2) [list [$qm(n5->n2) set bdepartures_] [$qm(n5->n2) set pdepartures_] [$qm(n5->n2) set pdrops_] [[$qm(n5->n2) get-pkts-integrator] set sum_] [$qm(n5->n2) set pkts_]]
  [$qm(n2->n6) get-pkts-integrator] newpoint [$ns now] [$qm(n2->n6) set pkts_]
  set snapshot($tag,n2->n6) [list [$qm(n2->n6) set bdepartures_] [$qm(n2->n6) set pdepartures_] [$qm(n2->n6) set pdrops_] [[$qm(n2->n6) get-pkts-integrator] set sum_] [$qm(n2->n6) set pkts_]]
  [$qm(n6->n2) get-pkts-integrator] newpoint [$ns now] [$qm(n6->n2) set pkts_]
  set snapshot($tag,n6->n2) [list [$qm(n6->n2) set bdepartures_] [$qm(n6->n2) set pdepartures_] [$qm(n6->n2) set pdrops_] [[$qm(n6->n2) get-pkts-integrator] set sum_] [$qm(n6->n2) set pkts_]]
  [$qm(n3->n7) get-pkts-integrator] newpoint [$ns now] [$qm(n3->n7) set pkts_]
  set snapshot($tag,n3->n7) [list [$qm(n3->n7) set bdepartures_] [$qm(n3->n7) set pdepartures_] [$qm(n3->n7) set pdrops_] [[$qm(n3->n7) get-pkts-integrator] set sum_] [$qm(n3->n7) set pkts_]]
  [$qm(n7->n3) get-pkts-integrator] newpoint [$ns now] [$qm(n7->n3) set pkts_]
  set snapshot($tag,n7->n3) [list [$qm(n7->n3) set bdepartures_] [$qm(n7->n3) set pdepartures_] [$qm(n7->n3) set pdrops_] [[$qm(n7->n3) get-pkts-integrator] set sum_] [$qm(n7->n3) set pkts_]]
  [$qm(n3->n8) get-pkts-integrator] newpoint [$ns now] [$qm(n3->n8) set pkts_]
  set snapshot($tag,n3->n8) [list [$qm(n3->n8) set bdepartures_] [$qm(n3->n8) set pdepartures_] [$qm(n3->n8) set pdrops_] [[$qm(n3->n8) get-pkts-integrator] set sum_] [$qm(n3->n8) set pkts_]]
  [$qm(n8->n3) get-pkts-integrator] newpoint [$ns now] [$qm(n8->n3) set pkts_]
  set snapshot($tag,n8->n3) [list [$qm(n8->n3) set bdepartures_] [$qm(n8->n3) set pdepartures_] [$qm(n8->n3) set pdrops_] [[$qm(n8->n3) get-pkts-integrator] set sum_] [$qm(n8->n3) set pkts_]]
  [$qm(n4->n9) get-pkts-integrator] newpoint [$ns now] [$qm(n4->n9) set pkts_]
  set snapshot($tag,n4->n9) [list [$qm(n4->n9) set bdepartures_] [$qm(n4->n9) set pdepartures_] [$qm(n4->n9) set pdrops_] [[$qm(n4->n9) get-pkts-integrator] set sum_] [$qm(n4->n9) set pkts_]]
  [$qm(n9->n4) get-pkts-integrator] newpoint [$ns now] [$qm(n9->n4) set pkts_]
  set snapshot($tag,n9->n4) [list [$qm(n9->n4) set bdepartures_] [$qm(n9->n4) set pdepartures_] [$qm(n9->n4) set pdrops_] [[$qm(n9->n4) get-pkts-integrator] set sum_] [$qm(n9->n4) set pkts_]]
  [$qm(n4->n10) get-pkts-integrator] newpoint [$ns now] [$qm(n4->n10) set pkts_]
  set snapshot($tag,n4->n10) [list [$qm(n4->n10) set bdepartures_] [$qm(n4->n10) set pdepartures_] [$qm(n4->n10) set pdrops_] [[$qm(n4->n10) get-pkts-integrator] set sum_] [$qm(n4->n10) set pkts_]]
  [$qm(n10->n4) get-pkts-integrator] newpoint [$ns now] [$qm(n10->n4) set pkts_]
  set snapshot($tag,n10->n4) [list [$qm(n10->n4) set bdepartures_] [$qm(n10->n4) set pdepartures_] [$qm(n10->n4) set pdrops_] [[$qm(n10->n4) get-pkts-integrator] set sum_] [$qm(n10->n4) set pkts_]]
  [$qm(n5->n11) get-pkts-integrator] newpoint [$ns now] [$qm(n5->n11) set pkts_]
  set snapshot($tag,n5->n11) [list [$qm(n5->n11) set bdepartures_] [$qm(n5->n11) set pdepartures_] [$qm(n5->n11) set pdrops_] [[$qm(n5->n11) get-pkts-integrator] set sum_] [$qm(n5->n11) set pkts_]]
  [$qm(n11->n5) get-pkts-integrator] newpoint [$ns now] [$qm(n11->n5) set pkts_]
  set snapshot($tag,n11->n5) [list [$qm(n11->n5) set bdepartures_] [$qm(n11->n5) set pdepartures_] [$qm(n11->n5) set pdrops_] [[$qm(n11->n5) get-pkts-integrator] set sum_] [$qm(n11->n5) set pkts_]]
  [$qm(n5->n12) get-pkts-integrator] newpoint [$ns now] [$qm(n5->n12) set pkts_]
  set snapshot($tag,n5->n12) [list [$qm(n5->n12) set bdepartures_] [$qm(n5->n12) set pdepartures_] [$qm(n5->n12) set pdrops_] [[$qm(n5->n12) get-pkts-integrator] set sum_] [$qm(n5->n12) set pkts_]]
  [$qm(n12->n5) get-pkts-integrator] newpoint [$ns now] [$qm(n12->n5) set pkts_]
  set snapshot($tag,n12->n5) [list [$qm(n12->n5) set bdepartures_] [$qm(n12->n5) set pdepartures_] [$qm(n12->n5) set pdrops_] [[$qm(n12->n5) get-pkts-integrator] set sum_] [$qm(n12->n5) set pkts_]]
  [$qm(n6->n13) get-pkts-integrator] newpoint [$ns now] [$qm(n6->n13) set pkts_]
  set snapshot($tag,n6->n13) [list [$qm(n6->n13) set bdepartures_] [$qm(n6->n13) set pdepartures_] [$qm(n6->n13) set pdrops_] [[$qm(n6->n13) get-pkts-integrator] set sum_] [$qm(n6->n13) set pkts_]]
  [$qm(n13->n6) get-pkts-integrator] newpoint [$ns now] [$qm(n13->n6) set pkts_]
  set snapshot($tag,n13->n6) [list [$qm(n13->n6) set bdepartures_] [$qm(n13->n6) set pdepartures_] [$qm(n13->n6) set pdrops_] [[$qm(n13->n6) get-pkts-integrator] set sum_] [$qm(n13->n6) set pkts_]]
  [$qm(n6->n14) get-pkts-integrator] newpoint [$ns now] [$qm(n6->n14) set pkts_]
  set snapshot($tag,n6->n14) [list [$qm(n6->n14) set bdepartures_] [$qm(n6->n14) set pdepartures_] [$qm(n6->n14) set pdrops_] [[$qm(n6->n14) get-pkts-integrator] set sum_] [$qm(n6->n14) set pkts_]]
  [$qm(n14->n6) get-pkts-integrator] newpoint [$ns now] [$qm(n14->n6) set pkts_]
  set snapshot($tag,n14->n6) [list [$qm(n14->n6) set bdepartures_] [$qm(n14->n6) set pdepartures_] [$qm(n14->n6) set pdrops_] [[$qm(n14->n6) get-pkts-integrator] set sum_] [$qm(n14->n6) set pkts_]]
  [$qm(n7->n15) get-pkts-integrator] newpoint [$ns now] [$qm(n7->n15) set pkts_]
  set snapshot($tag,n7->n15) [list [$qm(n7->n15) set bdepartures_] [$qm(n7->n15) set pdepartures_] [$qm(n7->n15) set pdrops_] [[$qm(n7->n15) get-pkts-integrator] set sum_] [$qm(n7->n15) set pkts_]]
  [$qm(n15->n7) get-pkts-integrator] newpoint [$ns now] [$qm(n15->n7) set pkts_]
  set snapshot($tag,n15->n7) [list [$qm(n15->n7) set bdepartures_] [$qm(n15->n7) set pdepartures_] [$qm(n15->n7) set pdrops_] [[$qm(n15->n7) get-pkts-integrator] set sum_] [$qm(n15->n7) set pkts_]]
  [$qm(n7->n16) get-pkts-integrator] newpoint [$ns now] [$qm(n7->n16) set pkts_]
  set snapshot($tag,n7->n16) [list [$qm(n7->n16) set bdepartures_] [$qm(n7->n16) set pdepartures_] [$qm(n7->n16) set pdrops_] [[$qm(n7->n16) get-pkts-integrator] set sum_] [$qm(n7->n16) set pkts_]]
  [$qm(n16->n7) get-pkts-integrator] newpoint [$ns now] [$qm(n16->n7) set pkts_]
  set snapshot($tag,n16->n7) [list [$qm(n16->n7) set bdepartures_] [$qm(n16->n7) set pdepartures_] [$qm(n16->n7) set pdrops_] [[$qm(n16->n7) get-pkts-integrator] set sum_] [$qm(n16->n7) set pkts_]]
  [$qm(n8->n17) get-pkts-integrator] newpoint [$ns now] [$qm(n8->n17) set pkts_]
  set snapshot($tag,n8->n17) [list [$qm(n8->n17) set bdepartures_] [$qm(n8->n17) set pdepartures_] [$qm(n8->n17) set pdrops_] [[$qm(n8->n17) get-pkts-integrator] set sum_] [$qm(n8->n17) set pkts_]]
  [$qm(n17->n8) get-pkts-integrator] newpoint [$ns now] [$qm(n17->n8) set pkts_]
  set snapshot($tag,n17->n8) [list [$qm(n17->n8) set bdepartures_] [$qm(n17->n8) set pdepartures_] [$qm(n17->n8) set pdrops_] [[$qm(n17->n8) get-pkts-integrator] set sum_] [$qm(n17->n8) set pkts_]]
  [$qm(n8->n18) get-pkts-integrator] newpoint [$ns now] [$qm(n8->n18) set pkts_]
  set snapshot($tag,n8->n18) [list [$qm(n8->n18) set bdepartures_] [$qm(n8->n18) set pdepartures_] [$qm(n8->n18) set pdrops_] [[$qm(n8->n18) get-pkts-integrator] set sum_] [$qm(n8->n18) set pkts_]]
  [$qm(n18->n8) get-pkts-integrator] newpoint [$ns now] [$qm(n18->n8) set pkts_]
  set snapshot($tag,n18->n8) [list [$qm(n18->n8) set bdepartures_] [$qm(n18->n8) set pdepartures_] [$qm(n18->n8) set pdrops_] [[$qm(n18->n8) get-pkts-integrator] set sum_] [$qm(n18->n8) set pkts_]]
  [$qm(n9->n19) get-pkts-integrator] newpoint [$ns now] [$qm(n9->n19) set pkts_]
  set snapshot($tag,n9->n19) [list [$qm(n9->n19) set bdepartures_] [$qm(n9->n19) set pdepartures_] [$qm(n9->n19) set pdrops_] [[$qm(n9->n19) get-pkts-integrator] set sum_] [$qm(n9->n19) set pkts_]]
  [$qm(n19->n9) get-pkts-integrator] newpoint [$ns now] [$qm(n19->n9) set pkts_]
  set snapshot($tag,n19->n9) [list [$qm(n19->n9) set bdepartures_] [$qm(n19->n9) set pdepartures_] [$qm(n19->n9) set pdrops_] [[$qm(n19->n9) get-pkts-integrator] set sum_] [$qm(n19->n9) set pkts_]]
  [$qm(n9->n20) get-pkts-integrator] newpoint [$ns now] [$qm(n9->n20) set pkts_]
  set snapshot($tag,n9->n20) [list [$qm(n9->n20) set bdepartures_] [$qm(n9->n20) set pdepartures_] [$qm(n9->n20) set pdrops_] [[$qm(n9->n20) get-pkts-integrator] set sum_] [$qm(n9->n20) set pkts_]]
  [$qm(n20->n9) get-pkts-integrator] newpoint [$ns now] [$qm(n20->n9) set pkts_]
  set snapshot($tag,n20->n9) [list [$qm(n20->n9) set bdepartures_] [$qm(n20->n9) set pdepartures_] [$qm(n20->n9) set pdrops_] [[$qm(n20->n9) get-pkts-integrator] set sum_] [$qm(n20->n9) set pkts_]]
  [$qm(n10->n21) get-pkts-integrator] newpoint [$ns now] [$qm(n10->n21) set pkts_]
  set snapshot($tag,n10->n21) [list [$qm(n10->n21) set bdepartures_] [$qm(n10->n21) set pdepartures_] [$qm(n10->n21) set pdrops_] [[$qm(n10->n21) get-pkts-integrator] set sum_] [$qm(n10->n21) set pkts_]]
  [$qm(n21->n10) get-pkts-integrator] newpoint [$ns now] [$qm(n21->n10) set pkts_]
  set snapshot($tag,n21->n10) [list [$qm(n21->n10) set bdepartures_] [$qm(n21->n10) set pdepartures_] [$qm(n21->n10) set pdrops_] [[$qm(n21->n10) get-pkts-integrator] set sum_] [$qm(n21->n10) set pkts_]]
  [$qm(n10->n22) get-pkts-integrator] newpoint [$ns now] [$qm(n10->n22) set pkts_]
  set snapshot($tag,n10->n22) [list [$qm(n10->n22) set bdepartures_] [$qm(n10->n22) set pdepartures_] [$qm(n10->n22) set pdrops_] [[$qm(n10->n22) get-pkts-integrator] set sum_] [$qm(n10->n22) set pkts_]]
  [$qm(n22->n10) get-pkts-integrator] newpoint [$ns now] [$qm(n22->n10) set pkts_]
  set snapshot($tag,n22->n10) [list [$qm(n22->n10) set bdepartures_] [$qm(n22->n10) set pdepartures_] [$qm(n22->n10) set pdrops_] [[$qm(n22->n10) get-pkts-integrator] set sum_] [$qm(n22->n10) set pkts_]]
  [$qm(n11->n23) get-pkts-integrator] newpoint [$ns now] [$qm(n11->n23) set pkts_]
  set snapshot($tag,n11->n23) [list [$qm(n11->n23) set bdepartures_] [$qm(n11->n23) set pdepartures_] [$qm(n11->n23) set pdrops_] [[$qm(n11->n23) get-pkts-integrator] set sum_] [$qm(n11->n23) set pkts_]]
  [$qm(n23->n11) get-pkts-integrator] newpoint [$ns now] [$qm(n23->n11) set pkts_]
  set snapshot($tag,n23->n11) [list [$qm(n23->n11) set bdepartures_] [$qm(n23->n11) set pdepartures_] [$qm(n23->n11) set pdrops_] [[$qm(n23->n11) get-pkts-integrator] set sum_] [$qm(n23->n11) set pkts_]]
  [$qm(n11->n24) get-pkts-integrator] newpoint [$ns now] [$qm(n11->n24) set pkts_]
  set snapshot($tag,n11->n24) [list [$qm(n11->n24) set bdepartures_] [$qm(n11->n24) set pdepartures_] [$qm(n11->n24) set pdrops_] [[$qm(n11->n24) get-pkts-integrator] set sum_] [$qm(n11->n24) set pkts_]]
  [$qm(n24->n11) get-pkts-integrator] newpoint [$ns now] [$qm(n24->n11) set pkts_]
  set snapshot($tag,n24->n11) [list [$qm(n24->n11) set bdepartures_] [$qm(n24->n11) set pdepartures_] [$qm(n24->n11) set pdrops_] [[$qm(n24->n11) get-pkts-integrator] set sum_] [$qm(n24->n11) set pkts_]]
  [$qm(n12->n25) get-pkts-integrator] newpoint [$ns now] [$qm(n12->n25) set pkts_]
  set snapshot($tag,n12->n25) [list [$qm(n12->n25) set bdepartures_] [$qm(n12->n25) set pdepartures_] [$qm(n12->n25) set pdrops_] [[$qm(n12->n25) get-pkts-integrator] set sum_] [$qm(n12->n25) set pkts_]]
  [$qm(n25->n12) get-pkts-integrator] newpoint [$ns now] [$qm(n25->n12) set pkts_]
  set snapshot($tag,n25->n12) [list [$qm(n25->n12) set bdepartures_] [$qm(n25->n12) set pdepartures_] [$qm(n25->n12) set pdrops_] [[$qm(n25->n12) get-pkts-integrator] set sum_] [$qm(n25->n12) set pkts_]]
  [$qm(n12->n26) get-pkts-integrator] newpoint [$ns now] [$qm(n12->n26) set pkts_]
  set snapshot($tag,n12->n26) [list [$qm(n12->n26) set bdepartures_] [$qm(n12->n26) set pdepartures_] [$qm(n12->n26) set pdrops_] [[$qm(n12->n26) get-pkts-integrator] set sum_] [$qm(n12->n26) set pkts_]]
  [$qm(n26->n12) get-pkts-integrator] newpoint [$ns now] [$qm(n26->n12) set pkts_]
  set snapshot($tag,n26->n12) [list [$qm(n26->n12) set bdepartures_] [$qm(n26->n12) set pdepartures_] [$qm(n26->n12) set pdrops_] [[$qm(n26->n12) get-pkts-integrator] set sum_] [$qm(n26->n12) set pkts_]]
  [$qm(n13->n27) get-pkts-integrator] newpoint [$ns now] [$qm(n13->n27) set pkts_]
  set snapshot($tag,n13->n27) [list [$qm(n13->n27) set bdepartures_] [$qm(n13->n27) set pdepartures_] [$qm(n13->n27) set pdrops_] [[$qm(n13->n27) get-pkts-integrator] set sum_] [$qm(n13->n27) set pkts_]]
  [$qm(n27->n13) get-pkts-integrator] newpoint [$ns now] [$qm(n27->n13) set pkts_]
  set snapshot($tag,n27->n13) [list [$qm(n27->n13) set bdepartures_] [$qm(n27->n13) set pdepartures_] [$qm(n27->n13) set pdrops_] [[$qm(n27->n13) get-pkts-integrator] set sum_] [$qm(n27->n13) set pkts_]]
  [$qm(n13->n28) get-pkts-integrator] newpoint [$ns now] [$qm(n13->n28) set pkts_]
  set snapshot($tag,n13->n28) [list [$qm(n13->n28) set bdepartures_] [$qm(n13->n28) set pdepartures_] [$qm(n13->n28) set pdrops_] [[$qm(n13->n28) get-pkts-integrator] set sum_] [$qm(n13->n28) set pkts_]]
  [$qm(n28->n13) get-pkts-integrator] newpoint [$ns now] [$qm(n28->n13) set pkts_]
  set snapshot($tag,n28->n13) [list [$qm(n28->n13) set bdepartures_] [$qm(n28->n13) set pdepartures_] [$qm(n28->n13) set pdrops_] [[$qm(n28->n13) get-pkts-integrator] set sum_] [$qm(n28->n13) set pkts_]]
  [$qm(n14->n29) get-pkts-integrator] newpoint [$ns now] [$qm(n14->n29) set pkts_]
  set snapshot($tag,n14->n29) [list [$qm(n14->n29) set bdepartures_] [$qm(n14->n29) set pdepartures_] [$qm(n14->n29) set pdrops_] [[$qm(n14->n29) get-pkts-integrator] set sum_] [$qm(n14->n29) set pkts_]]
  [$qm(n29->n14) get-pkts-integrator] newpoint [$ns now] [$qm(n29->n14) set pkts_]
  set snapshot($tag,n29->n14) [list [$qm(n29->n14) set bdepartures_] [$qm(n29->n14) set pdepartures_] [$qm(n29->n14) set pdrops_] [[$qm(n29->n14) get-pkts-integrator] set sum_] [$qm(n29->n14) set pkts_]]
  [$qm(n14->n30) get-pkts-integrator] newpoint [$ns now] [$qm(n14->n30) set pkts_]
  set snapshot($tag,n14->n30) [list [$qm(n14->n30) set bdepartures_] [$qm(n14->n30) set pdepartures_] [$qm(n14->n30) set pdrops_] [[$qm(n14->n30) get-pkts-integrator] set sum_] [$qm(n14->n30) set pkts_]]
  [$qm(n30->n14) get-pkts-integrator] newpoint [$ns now] [$qm(n30->n14) set pkts_]
  set snapshot($tag,n30->n14) [list [$qm(n30->n14) set bdepartures_] [$qm(n30->n14) set pdepartures_] [$qm(n30->n14) set pdrops_] [[$qm(n30->n14) get-pkts-integrator] set sum_] [$qm(n30->n14) set pkts_]]
  [$qm(n15->n31) get-pkts-integrator] newpoint [$ns now] [$qm(n15->n31) set pkts_]
  set snapshot($tag,n15->n31) [list [$qm(n15->n31) set bdepartures_] [$qm(n15->n31) set pdepartures_] [$qm(n15->n31) set pdrops_] [[$qm(n15->n31) get-pkts-integrator] set sum_] [$qm(n15->n31) set pkts_]]
  [$qm(n31->n15) get-pkts-integrator] newpoint [$ns now] [$qm(n31->n15) set pkts_]
  set snapshot($tag,n31->n15) [list [$qm(n31->n15) set bdepartures_] [$qm(n31->n15) set pdepartures_] [$qm(n31->n15) set pdrops_] [[$qm(n31->n15) get-pkts-integrator] set sum_] [$qm(n31->n15) set pkts_]]
  [$qm(n15->n32) get-pkts-integrator] newpoint [$ns now] [$qm(n15->n32) set pkts_]
  set snapshot($tag,n15->n32) [list [$qm(n15->n32) set bdepartures_] [$qm(n15->n32) set pdepartures_] [$qm(n15->n32) set pdrops_] [[$qm(n15->n32) get-pkts-integrator] set sum_] [$qm(n15->n32) set pkts_]]
  [$qm(n32->n15) get-pkts-integrator] newpoint [$ns now] [$qm(n32->n15) set pkts_]
  set snapshot($tag,n32->n15) [list [$qm(n32->n15) set bdepartures_] [$qm(n32->n15) set pdepartures_] [$qm(n32->n15) set pdrops_] [[$qm(n32->n15) get-pkts-integrator] set sum_] [$qm(n32->n15) set pkts_]]
  [$qm(n16->n33) get-pkts-integrator] newpoint [$ns now] [$qm(n16->n33) set pkts_]
  set snapshot($tag,n16->n33) [list [$qm(n16->n33) set bdepartures_] [$qm(n16->n33) set pdepartures_] [$qm(n16->n33) set pdrops_] [[$qm(n16->n33) get-pkts-integrator] set sum_] [$qm(n16->n33) set pkts_]]
  [$qm(n33->n16) get-pkts-integrator] newpoint [$ns now] [$qm(n33->n16) set pkts_]
  set snapshot($tag,n33->n16) [list [$qm(n33->n16) set bdepartures_] [$qm(n33->n16) set pdepartures_] [$qm(n33->n16) set pdrops_] [[$qm(n33->n16) get-pkts-integrator] set sum_] [$qm(n33->n16) set pkts_]]
  [$qm(n16->n34) get-pkts-integrator] newpoint [$ns now] [$qm(n16->n34) set pkts_]
  set snapshot($tag,n16->n34) [list [$qm(n16->n34) set bdepartures_] [$qm(n16->n34) set pdepartures_] [$qm(n16->n34) set pdrops_] [[$qm(n16->n34) get-pkts-integrator] set sum_] [$qm(n16->n34) set pkts_]]
  [$qm(n34->n16) get-pkts-integrator] newpoint [$ns now] [$qm(n34->n16) set pkts_]
  set snapshot($tag,n34->n16) [list [$qm(n34->n16) set bdepartures_] [$qm(n34->n16) set pdepartures_] [$qm(n34->n16) set pdrops_] [[$qm(n34->n16) get-pkts-integrator] set sum_] [$qm(n34->n16) set pkts_]]
  [$qm(n17->n35) get-pkts-integrator] newpoint [$ns now] [$qm(n17->n35) set pkts_]
  set snapshot($tag,n17->n35) [list [$qm(n17->n35) set bdepartures_] [$qm(n17->n35) set pdepartures_] [$qm(n17->n35) set pdrops_] [[$qm(n17->n35) get-pkts-integrator] set sum_] [$qm(n17->n35) set pkts_]]
  [$qm(n35->n17) get-pkts-integrator] newpoint [$ns now] [$qm(n35->n17) set pkts_]
  set snapshot($tag,n35->n17) [list [$qm(n35->n17) set bdepartures_] [$qm(n35->n17) set pdepartures_] [$qm(n35->n17) set pdrops_] [[$qm(n35->n17) get-pkts-integrator] set sum_] [$qm(n35->n17) set pkts_]]
  [$qm(n17->n36) get-pkts-integrator] newpoint [$ns now] [$qm(n17->n36) set pkts_]
  set snapshot($tag,n17->n36) [list [$qm(n17->n36) set bdepartures_] [$qm(n17->n36) set pdepartures_] [$qm(n17->n36) set pdrops_] [[$qm(n17->n36) get-pkts-integrator] set sum_] [$qm(n17->n36) set pkts_]]
  [$qm(n36->n17) get-pkts-integrator] newpoint [$ns now] [$qm(n36->n17) set pkts_]
  set snapshot($tag,n36->n17) [list [$qm(n36->n17) set bdepartures_] [$qm(n36->n17) set pdepartures_] [$qm(n36->n17) set pdrops_] [[$qm(n36->n17) get-pkts-integrator] set sum_] [$qm(n36->n17) set pkts_]]
  [$qm(n18->n37) get-pkts-integrator] newpoint [$ns now] [$qm(n18->n37) set pkts_]
  set snapshot($tag,n18->n37) [list [$qm(n18->n37) set bdepartures_] [$qm(n18->n37) set pdepartures_] [$qm(n18->n37) set pdrops_] [[$qm(n18->n37) get-pkts-integrator] set sum_] [$qm(n18->n37) set pkts_]]
  [$qm(n37->n18) get-pkts-integrator] newpoint [$ns now] [$qm(n37->n18) set pkts_]
  set snapshot($tag,n37->n18) [list [$qm(n37->n18) set bdepartures_] [$qm(n37->n18) set pdepartures_] [$qm(n37->n18) set pdrops_] [[$qm(n37->n18) get-pkts-integrator] set sum_] [$qm(n37->n18) set pkts_]]
  [$qm(n18->n38) get-pkts-integrator] newpoint [$ns now] [$qm(n18->n38) set pkts_]
  set snapshot($tag,n18->n38) [list [$qm(n18->n38) set bdepartures_] [$qm(n18->n38) set pdepartures_] [$qm(n18->n38) set pdrops_] [[$qm(n18->n38) get-pkts-integrator] set sum_] [$qm(n18->n38) set pkts_]]
  [$qm(n38->n18) get-pkts-integrator] newpoint [$ns now] [$qm(n38->n18) set pkts_]
  set snapshot($tag,n38->n18) [list [$qm(n38->n18) set bdepartures_] [$qm(n38->n18) set pdepartures_] [$qm(n38->n18) set pdrops_] [[$qm(n38->n18) get-pkts-integrator] set sum_] [$qm(n38->n18) set pkts_]]
  [$qm(n19->n39) get-pkts-integrator] newpoint [$ns now] [$qm(n19->n39) set pkts_]
  set snapshot($tag,n19->n39) [list [$qm(n19->n39) set bdepartures_] [$qm(n19->n39) set pdepartures_] [$qm(n19->n39) set pdrops_] [[$qm(n19->n39) get-pkts-integrator] set sum_] [$qm(n19->n39) set pkts_]]
  [$qm(n39->n19) get-pkts-integrator] newpoint [$ns now] [$qm(n39->n19) set pkts_]
  set snapshot($tag,n39->n19) [list [$qm(n39->n19) set bdepartures_] [$qm(n39->n19) set pdepartures_] [$qm(n39->n19) set pdrops_] [[$qm(n39->n19) get-pkts-integrator] set sum_] [$qm(n39->n19) set pkts_]]
  [$qm(n19->n40) get-pkts-integrator] newpoint [$ns now] [$qm(n19->n40) set pkts_]
  set snapshot($tag,n19->n40) [list [$qm(n19->n40) set bdepartures_] [$qm(n19->n40) set pdepartures_] [$qm(n19->n40) set pdrops_] [[$qm(n19->n40) get-pkts-integrator] set sum_] [$qm(n19->n40) set pkts_]]
  [$qm(n40->n19) get-pkts-integrator] newpoint [$ns now] [$qm(n40->n19) set pkts_]
  set snapshot($tag,n40->n19) [list [$qm(n40->n19) set bdepartures_] [$qm(n40->n19) set pdepartures_] [$qm(n40->n19) set pdrops_] [[$qm(n40->n19) get-pkts-integrator] set sum_] [$qm(n40->n19) set pkts_]]
  [$qm(n20->n41) get-pkts-integrator] newpoint [$ns now] [$qm(n20->n41) set pkts_]
  set snapshot($tag,n20->n41) [list [$qm(n20->n41) set bdepartures_] [$qm(n20->n41) set pdepartures_] [$qm(n20->n41) set pdrops_] [[$qm(n20->n41) get-pkts-integrator] set sum_] [$qm(n20->n41) set pkts_]]
  [$qm(n41->n20) get-pkts-integrator] newpoint [$ns now] [$qm(n41->n20) set pkts_]
  set snapshot($tag,n41->n20) [list [$qm(n41->n20) set bdepartures_] [$qm(n41->n20) set pdepartures_] [$qm(n41->n20) set pdrops_] [[$qm(n41->n20) get-pkts-integrator] set sum_] [$qm(n41->n20) set pkts_]]
  [$qm(n20->n42) get-pkts-integrator] newpoint [$ns now] [$qm(n20->n42) set pkts_]
  set snapshot($tag,n20->n42) [list [$qm(n20->n42) set bdepartures_] [$qm(n20->n42) set pdepartures_] [$qm(n20->n42) set pdrops_] [[$qm(n20->n42) get-pkts-integrator] set sum_] [$qm(n20->n42) set pkts_]]
  [$qm(n42->n20) get-pkts-integrator] newpoint [$ns now] [$qm(n42->n20) set pkts_]
  set snapshot($tag,n42->n20) [list [$qm(n42->n20) set bdepartures_] [$qm(n42->n20) set pdepartures_] [$qm(n42->n20) set pdrops_] [[$qm(n42->n20) get-pkts-integrator] set sum_] [$qm(n42->n20) set pkts_]]
  [$qm(n21->n43) get-pkts-integrator] newpoint [$ns now] [$qm(n21->n43) set pkts_]
  set snapshot($tag,n21->n43) [list [$qm(n21->n43) set bdepartures_] [$qm(n21->n43) set pdepartures_] [$qm(n21->n43) set pdrops_] [[$qm(n21->n43) get-pkts-integrator] set sum_] [$qm(n21->n43) set pkts_]]
  [$qm(n43->n21) get-pkts-integrator] newpoint [$ns now] [$qm(n43->n21) set pkts_]
  set snapshot($tag,n43->n21) [list [$qm(n43->n21) set bdepartures_] [$qm(n43->n21) set pdepartures_] [$qm(n43->n21) set pdrops_] [[$qm(n43->n21) get-pkts-integrator] set sum_] [$qm(n43->n21) set pkts_]]
  [$qm(n21->n44) get-pkts-integrator] newpoint [$ns now] [$qm(n21->n44) set pkts_]
  set snapshot($tag,n21->n44) [list [$qm(n21->n44) set bdepartures_] [$qm(n21->n44) set pdepartures_] [$qm(n21->n44) set pdrops_] [[$qm(n21->n44) get-pkts-integrator] set sum_] [$qm(n21->n44) set pkts_]]
  [$qm(n44->n21) get-pkts-integrator] newpoint [$ns now] [$qm(n44->n21) set pkts_]
  set snapshot($tag,n44->n21) [list [$qm(n44->n21) set bdepartures_] [$qm(n44->n21) set pdepartures_] [$qm(n44->n21) set pdrops_] [[$qm(n44->n21) get-pkts-integrator] set sum_] [$qm(n44->n21) set pkts_]]
  [$qm(n22->n45) get-pkts-integrator] newpoint [$ns now] [$qm(n22->n45) set pkts_]
  set snapshot($tag,n22->n45) [list [$qm(n22->n45) set bdepartures_] [$qm(n22->n45) set pdepartures_] [$qm(n22->n45) set pdrops_] [[$qm(n22->n45) get-pkts-integrator] set sum_] [$qm(n22->n45) set pkts_]]
  [$qm(n45->n22) get-pkts-integrator] newpoint [$ns now] [$qm(n45->n22) set pkts_]
  set snapshot($tag,n45->n22) [list [$qm(n45->n22) set bdepartures_] [$qm(n45->n22) set pdepartures_] [$qm(n45->n22) set pdrops_] [[$qm(n45->n22) get-pkts-integrator] set sum_] [$qm(n45->n22) set pkts_]]
  [$qm(n22->n46) get-pkts-integrator] newpoint [$ns now] [$qm(n22->n46) set pkts_]
  set snapshot($tag,n22->n46) [list [$qm(n22->n46) set bdepartures_] [$qm(n22->n46) set pdepartures_] [$qm(n22->n46) set pdrops_] [[$qm(n22->n46) get-pkts-integrator] set sum_] [$qm(n22->n46) set pkts_]]
  [$qm(n46->n22) get-pkts-integrator] newpoint [$ns now] [$qm(n46->n22) set pkts_]
  set snapshot($tag,n46->n22) [list [$qm(n46->n22) set bdepartures_] [$qm(n46->n22) set pdepartures_] [$qm(n46->n22) set pdrops_] [[$qm(n46->n22) get-pkts-integrator] set sum_] [$qm(n46->n22) set pkts_]]
  [$qm(n23->n47) get-pkts-integrator] newpoint [$ns now] [$qm(n23->n47) set pkts_]
  set snapshot($tag,n23->n47) [list [$qm(n23->n47) set bdepartures_] [$qm(n23->n47) set pdepartures_] [$qm(n23->n47) set pdrops_] [[$qm(n23->n47) get-pkts-integrator] set sum_] [$qm(n23->n47) set pkts_]]
  [$qm(n47->n23) get-pkts-integrator] newpoint [$ns now] [$qm(n47->n23) set pkts_]
  set snapshot($tag,n47->n23) [list [$qm(n47->n23) set bdepartures_] [$qm(n47->n23) set pdepartures_] [$qm(n47->n23) set pdrops_] [[$qm(n47->n23) get-pkts-integrator] set sum_] [$qm(n47->n23) set pkts_]]
  [$qm(n23->n48) get-pkts-integrator] newpoint [$ns now] [$qm(n23->n48) set pkts_]
  set snapshot($tag,n23->n48) [list [$qm(n23->n48) set bdepartures_] [$qm(n23->n48) set pdepartures_] [$qm(n23->n48) set pdrops_] [[$qm(n23->n48) get-pkts-integrator] set sum_] [$qm(n23->n48) set pkts_]]
  [$qm(n48->n23) get-pkts-integrator] newpoint [$ns now] [$qm(n48->n23) set pkts_]
  set snapshot($tag,n48->n23) [list [$qm(n48->n23) set bdepartures_] [$qm(n48->n23) set pdepartures_] [$qm(n48->n23) set pdrops_] [[$qm(n48->n23) get-pkts-integrator] set sum_] [$qm(n48->n23) set pkts_]]
  [$qm(n24->n49) get-pkts-integrator] newpoint [$ns now] [$qm(n24->n49) set pkts_]
  set snapshot($tag,n24->n49) [list [$qm(n24->n49) set bdepartures_] [$qm(n24->n49) set pdepartures_] [$qm(n24->n49) set pdrops_] [[$qm(n24->n49) get-pkts-integrator] set sum_] [$qm(n24->n49) set pkts_]]
  [$qm(n49->n24) get-pkts-integrator] newpoint [$ns now] [$qm(n49->n24) set pkts_]
  set snapshot($tag,n49->n24) [list [$qm(n49->n24) set bdepartures_] [$qm(n49->n24) set pdepartures_] [$qm(n49->n24) set pdrops_] [[$qm(n49->n24) get-pkts-integrator] set sum_] [$qm(n49->n24) set pkts_]]
  [$qm(n24->n50) get-pkts-integrator] newpoint [$ns now] [$qm(n24->n50) set pkts_]
  set snapshot($tag,n24->n50) [list [$qm(n24->n50) set bdepartures_] [$qm(n24->n50) set pdepartures_] [$qm(n24->n50) set pdrops_] [[$qm(n24->n50) get-pkts-integrator] set sum_] [$qm(n24->n50) set pkts_]]
  [$qm(n50->n24) get-pkts-integrator] newpoint [$ns now] [$qm(n50->n24) set pkts_]
  set snapshot($tag,n50->n24) [list [$qm(n50->n24) set bdepartures_] [$qm(n50->n24) set pdepartures_] [$qm(n50->n24) set pdrops_] [[$qm(n50->n24) get-pkts-integrator] set sum_] [$qm(n50->n24) set pkts_]]
  [$qm(n25->n51) get-pkts-integrator] newpoint [$ns now] [$qm(n25->n51) set pkts_]
  set snapshot($tag,n25->n51) [list [$qm(n25->n51) set bdepartures_] [$qm(n25->n51) set pdepartures_] [$qm(n25->n51) set pdrops_] [[$qm(n25->n51) get-pkts-integrator] set sum_] [$qm(n25->n51) set pkts_]]
  [$qm(n51->n25) get-pkts-integrator] newpoint [$ns now] [$qm(n51->n25) set pkts_]
  set snapshot($tag,n51->n25) [list [$qm(n51->n25) set bdepartures_] [$qm(n51->n25) set pdepartures_] [$qm(n51->n25) set pdrops_] [[$qm(n51->n25) get-pkts-integrator] set sum_] [$qm(n51->n25) set pkts_]]
  [$qm(n25->n52) get-pkts-integrator] newpoint [$ns now] [$qm(n25->n52) set pkts_]
  set snapshot($tag,n25->n52) [list [$qm(n25->n52) set bdepartures_] [$qm(n25->n52) set pdepartures_] [$qm(n25->n52) set pdrops_] [[$qm(n25->n52) get-pkts-integrator] set sum_] [$qm(n25->n52) set pkts_]]
  [$qm(n52->n25) get-pkts-integrator] newpoint [$ns now] [$qm(n52->n25) set pkts_]
  set snapshot($tag,n52->n25) [list [$qm(n52->n25) set bdepartures_] [$qm(n52->n25) set pdepartures_] [$qm(n52->n25) set pdrops_] [[$qm(n52->n25) get-pkts-integrator] set sum_] [$qm(n52->n25) set pkts_]]
  [$qm(n26->n53) get-pkts-integrator] newpoint [$ns now] [$qm(n26->n53) set pkts_]
  set snapshot($tag,n26->n53) [list [$qm(n26->n53) set bdepartures_] [$qm(n26->n53) set pdepartures_] [$qm(n26->n53) set pdrops_] [[$qm(n26->n53) get-pkts-integrator] set sum_] [$qm(n26->n53) set pkts_]]
  [$qm(n53->n26) get-pkts-integrator] newpoint [$ns now] [$qm(n53->n26) set pkts_]
  set snapshot($tag,n53->n26) [list [$qm(n53->n26) set bdepartures_] [$qm(n53->n26) set pdepartures_] [$qm(n53->n26) set pdrops_] [[$qm(n53->n26) get-pkts-integrator] set sum_] [$qm(n53->n26) set pkts_]]
  [$qm(n26->n54) get-pkts-integrator] newpoint [$ns now] [$qm(n26->n54) set pkts_]
  set snapshot($tag,n26->n54) [list [$qm(n26->n54) set bdepartures_] [$qm(n26->n54) set pdepartures_] [$qm(n26->n54) set pdrops_] [[$qm(n26->n54) get-pkts-integrator] set sum_] [$qm(n26->n54) set pkts_]]
  [$qm(n54->n26) get-pkts-integrator] newpoint [$ns now] [$qm(n54->n26) set pkts_]
  set snapshot($tag,n54->n26) [list [$qm(n54->n26) set bdepartures_] [$qm(n54->n26) set pdepartures_] [$qm(n54->n26) set pdrops_] [[$qm(n54->n26) get-pkts-integrator] set sum_] [$qm(n54->n26) set pkts_]]
  [$qm(n27->n55) get-pkts-integrator] newpoint [$ns now] [$qm(n27->n55) set pkts_]
  set snapshot($tag,n27->n55) [list [$qm(n27->n55) set bdepartures_] [$qm(n27->n55) set pdepartures_] [$qm(n27->n55) set pdrops_] [[$qm(n27->n55) get-pkts-integrator] set sum_] [$qm(n27->n55) set pkts_]]
  [$qm(n55->n27) get-pkts-integrator] newpoint [$ns now] [$qm(n55->n27) set pkts_]
  set snapshot($tag,n55->n27) [list [$qm(n55->n27) set bdepartures_] [$qm(n55->n27) set pdepartures_] [$qm(n55->n27) set pdrops_] [[$qm(n55->n27) get-pkts-integrator] set sum_] [$qm(n55->n27) set pkts_]]
  [$qm(n27->n56) get-pkts-integrator] newpoint [$ns now] [$qm(n27->n56) set pkts_]
  set snapshot($tag,n27->n56) [list [$qm(n27->n56) set bdepartures_] [$qm(n27->n56) set pdepartures_] [$qm(n27->n56) set pdrops_] [[$qm(n27->n56) get-pkts-integrator] set sum_] [$qm(n27->n56) set pkts_]]
  [$qm(n56->n27) get-pkts-integrator] newpoint [$ns now] [$qm(n56->n27) set pkts_]
  set snapshot($tag,n56->n27) [list [$qm(n56->n27) set bdepartures_] [$qm(n56->n27) set pdepartures_] [$qm(n56->n27) set pdrops_] [[$qm(n56->n27) get-pkts-integrator] set sum_] [$qm(n56->n27) set pkts_]]
  [$qm(n28->n57) get-pkts-integrator] newpoint [$ns now] [$qm(n28->n57) set pkts_]
  set snapshot($tag,n28->n57) [list [$qm(n28->n57) set bdepartures_] [$qm(n28->n57) set pdepartures_] [$qm(n28->n57) set pdrops_] [[$qm(n28->n57) get-pkts-integrator] set sum_] [$qm(n28->n57) set pkts_]]
  [$qm(n57->n28) get-pkts-integrator] newpoint [$ns now] [$qm(n57->n28) set pkts_]
  set snapshot($tag,n57->n28) [list [$qm(n57->n28) set bdepartures_] [$qm(n57->n28) set pdepartures_] [$qm(n57->n28) set pdrops_] [[$qm(n57->n28) get-pkts-integrator] set sum_] [$qm(n57->n28) set pkts_]]
  [$qm(n28->n58) get-pkts-integrator] newpoint [$ns now] [$qm(n28->n58) set pkts_]
  set snapshot($tag,n28->n58) [list [$qm(n28->n58) set bdepartures_] [$qm(n28->n58) set pdepartures_] [$qm(n28->n58) set pdrops_] [[$qm(n28->n58) get-pkts-integrator] set sum_] [$qm(n28->n58) set pkts_]]
  [$qm(n58->n28) get-pkts-integrator] newpoint [$ns now] [$qm(n58->n28) set pkts_]
  set snapshot($tag,n58->n28) [list [$qm(n58->n28) set bdepartures_] [$qm(n58->n28) set pdepartures_] [$qm(n58->n28) set pdrops_] [[$qm(n58->n28) get-pkts-integrator] set sum_] [$qm(n58->n28) set pkts_]]
  [$qm(n29->n59) get-pkts-integrator] newpoint [$ns now] [$qm(n29->n59) set pkts_]
  set snapshot($tag,n29->n59) [list [$qm(n29->n59) set bdepartures_] [$qm(n29->n59) set pdepartures_] [$qm(n29->n59) set pdrops_] [[$qm(n29->n59) get-pkts-integrator] set sum_] [$qm(n29->n59) set pkts_]]
  [$qm(n59->n29) get-pkts-integrator] newpoint [$ns now] [$qm(n59->n29) set pkts_]
  set snapshot($tag,n59->n29) [list [$qm(n59->n29) set bdepartures_] [$qm(n59->n29) set pdepartures_] [$qm(n59->n29) set pdrops_] [[$qm(n59->n29) get-pkts-integrator] set sum_] [$qm(n59->n29) set pkts_]]
  [$qm(n29->n60) get-pkts-integrator] newpoint [$ns now] [$qm(n29->n60) set pkts_]
  set snapshot($tag,n29->n60) [list [$qm(n29->n60) set bdepartures_] [$qm(n29->n60) set pdepartures_] [$qm(n29->n60) set pdrops_] [[$qm(n29->n60) get-pkts-integrator] set sum_] [$qm(n29->n60) set pkts_]]
  [$qm(n60->n29) get-pkts-integrator] newpoint [$ns now] [$qm(n60->n29) set pkts_]
  set snapshot($tag,n60->n29) [list [$qm(n60->n29) set bdepartures_] [$qm(n60->n29) set pdepartures_] [$qm(n60->n29) set pdrops_] [[$qm(n60->n29) get-pkts-integrator] set sum_] [$qm(n60->n29) set pkts_]]
  [$qm(n30->n61) get-pkts-integrator] newpoint [$ns now] [$qm(n30->n61) set pkts_]
  set snapshot($tag,n30->n61) [list [$qm(n30->n61) set bdepartures_] [$qm(n30->n61) set pdepartures_] [$qm(n30->n61) set pdrops_] [[$qm(n30->n61) get-pkts-integrator] set sum_] [$qm(n30->n61) set pkts_]]
  [$qm(n61->n30) get-pkts-integrator] newpoint [$ns now] [$qm(n61->n30) set pkts_]
  set snapshot($tag,n61->n30) [list [$qm(n61->n30) set bdepartures_] [$qm(n61->n30) set pdepartures_] [$qm(n61->n30) set pdrops_] [[$qm(n61->n30) get-pkts-integrator] set sum_] [$qm(n61->n30) set pkts_]]
  [$qm(n30->n62) get-pkts-integrator] newpoint [$ns now] [$qm(n30->n62) set pkts_]
  set snapshot($tag,n30->n62) [list [$qm(n30->n62) set bdepartures_] [$qm(n30->n62) set pdepartures_] [$qm(n30->n62) set pdrops_] [[$qm(n30->n62) get-pkts-integrator] set sum_] [$qm(n30->n62) set pkts_]]
  [$qm(n62->n30) get-pkts-integrator] newpoint [$ns now] [$qm(n62->n30) set pkts_]
  set snapshot($tag,n62->n30) [list [$qm(n62->n30) set bdepartures_] [$qm(n62->n30) set pdepartures_] [$qm(n62->n30) set pdrops_] [[$qm(n62->n30) get-pkts-integrator] set sum_] [$qm(n62->n30) set pkts_]]
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
  set b $snapshot(warm,unicast); set e $snapshot(end,unicast)
  set good [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 * 40 / 80 / $span}]
  lappend parts "\"flow:unicast\": {\"goodput_bps\": $good, \"timeouts\": [expr {[lindex $e 1] - [lindex $b 1]}], \"retransmitted_packets\": [expr {[lindex $e 2] - [lindex $b 2]}], \"sent_packets\": [expr {[lindex $e 3] - [lindex $b 3]}], \"lost_packets\": [lost 0]}"
  set b $snapshot(warm,n0->n1); set e $snapshot(end,n0->n1)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n0->n1\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n1->n0); set e $snapshot(end,n1->n0)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n1->n0\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n0->n2); set e $snapshot(end,n0->n2)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n0->n2\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n2->n0); set e $snapshot(end,n2->n0)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n2->n0\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n1->n3); set e $snapshot(end,n1->n3)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n1->n3\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n3->n1); set e $snapshot(end,n3->n1)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n3->n1\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n1->n4); set e $snapshot(end,n1->n4)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n1->n4\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n4->n1); set e $snapshot(end,n4->n1)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n4->n1\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n2->n5); set e $snapshot(end,n2->n5)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n2->n5\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n5->n2); set e $snapshot(end,n5->n2)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n5->n2\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n2->n6); set e $snapshot(end,n2->n6)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n2->n6\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n6->n2); set e $snapshot(end,n6->n2)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n6->n2\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n3->n7); set e $snapshot(end,n3->n7)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n3->n7\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n7->n3); set e $snapshot(end,n7->n3)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n7->n3\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n3->n8); set e $snapshot(end,n3->n8)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n3->n8\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n8->n3); set e $snapshot(end,n8->n3)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n8->n3\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n4->n9); set e $snapshot(end,n4->n9)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n4->n9\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n9->n4); set e $snapshot(end,n9->n4)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n9->n4\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n4->n10); set e $snapshot(end,n4->n10)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n4->n10\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n10->n4); set e $snapshot(end,n10->n4)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n10->n4\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n5->n11); set e $snapshot(end,n5->n11)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n5->n11\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n11->n5); set e $snapshot(end,n11->n5)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n11->n5\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n5->n12); set e $snapshot(end,n5->n12)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n5->n12\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n12->n5); set e $snapshot(end,n12->n5)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n12->n5\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n6->n13); set e $snapshot(end,n6->n13)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n6->n13\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n13->n6); set e $snapshot(end,n13->n6)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n13->n6\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n6->n14); set e $snapshot(end,n6->n14)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n6->n14\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n14->n6); set e $snapshot(end,n14->n6)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n14->n6\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n7->n15); set e $snapshot(end,n7->n15)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n7->n15\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n15->n7); set e $snapshot(end,n15->n7)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n15->n7\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n7->n16); set e $snapshot(end,n7->n16)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n7->n16\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n16->n7); set e $snapshot(end,n16->n7)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n16->n7\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n8->n17); set e $snapshot(end,n8->n17)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n8->n17\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n17->n8); set e $snapshot(end,n17->n8)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n17->n8\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n8->n18); set e $snapshot(end,n8->n18)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n8->n18\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n18->n8); set e $snapshot(end,n18->n8)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n18->n8\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n9->n19); set e $snapshot(end,n9->n19)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n9->n19\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n19->n9); set e $snapshot(end,n19->n9)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n19->n9\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n9->n20); set e $snapshot(end,n9->n20)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n9->n20\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n20->n9); set e $snapshot(end,n20->n9)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n20->n9\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n10->n21); set e $snapshot(end,n10->n21)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n10->n21\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n21->n10); set e $snapshot(end,n21->n10)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n21->n10\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n10->n22); set e $snapshot(end,n10->n22)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n10->n22\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n22->n10); set e $snapshot(end,n22->n10)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n22->n10\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n11->n23); set e $snapshot(end,n11->n23)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n11->n23\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n23->n11); set e $snapshot(end,n23->n11)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n23->n11\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n11->n24); set e $snapshot(end,n11->n24)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n11->n24\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n24->n11); set e $snapshot(end,n24->n11)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n24->n11\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n12->n25); set e $snapshot(end,n12->n25)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n12->n25\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n25->n12); set e $snapshot(end,n25->n12)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n25->n12\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n12->n26); set e $snapshot(end,n12->n26)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n12->n26\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n26->n12); set e $snapshot(end,n26->n12)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n26->n12\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n13->n27); set e $snapshot(end,n13->n27)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n13->n27\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n27->n13); set e $snapshot(end,n27->n13)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n27->n13\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n13->n28); set e $snapshot(end,n13->n28)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n13->n28\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n28->n13); set e $snapshot(end,n28->n13)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n28->n13\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n14->n29); set e $snapshot(end,n14->n29)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n14->n29\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n29->n14); set e $snapshot(end,n29->n14)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n29->n14\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n14->n30); set e $snapshot(end,n14->n30)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n14->n30\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n30->n14); set e $snapshot(end,n30->n14)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n30->n14\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n15->n31); set e $snapshot(end,n15->n31)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n15->n31\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n31->n15); set e $snapshot(end,n31->n15)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n31->n15\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n15->n32); set e $snapshot(end,n15->n32)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n15->n32\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n32->n15); set e $snapshot(end,n32->n15)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n32->n15\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n16->n33); set e $snapshot(end,n16->n33)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n16->n33\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n33->n16); set e $snapshot(end,n33->n16)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n33->n16\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n16->n34); set e $snapshot(end,n16->n34)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n16->n34\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n34->n16); set e $snapshot(end,n34->n16)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n34->n16\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n17->n35); set e $snapshot(end,n17->n35)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n17->n35\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n35->n17); set e $snapshot(end,n35->n17)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n35->n17\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n17->n36); set e $snapshot(end,n17->n36)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n17->n36\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n36->n17); set e $snapshot(end,n36->n17)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n36->n17\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n18->n37); set e $snapshot(end,n18->n37)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n18->n37\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n37->n18); set e $snapshot(end,n37->n18)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n37->n18\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n18->n38); set e $snapshot(end,n18->n38)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n18->n38\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n38->n18); set e $snapshot(end,n38->n18)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n38->n18\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n19->n39); set e $snapshot(end,n19->n39)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n19->n39\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n39->n19); set e $snapshot(end,n39->n19)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n39->n19\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n19->n40); set e $snapshot(end,n19->n40)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n19->n40\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n40->n19); set e $snapshot(end,n40->n19)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n40->n19\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n20->n41); set e $snapshot(end,n20->n41)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n20->n41\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n41->n20); set e $snapshot(end,n41->n20)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n41->n20\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n20->n42); set e $snapshot(end,n20->n42)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n20->n42\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n42->n20); set e $snapshot(end,n42->n20)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n42->n20\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n21->n43); set e $snapshot(end,n21->n43)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n21->n43\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n43->n21); set e $snapshot(end,n43->n21)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n43->n21\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n21->n44); set e $snapshot(end,n21->n44)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n21->n44\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n44->n21); set e $snapshot(end,n44->n21)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n44->n21\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n22->n45); set e $snapshot(end,n22->n45)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n22->n45\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n45->n22); set e $snapshot(end,n45->n22)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n45->n22\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n22->n46); set e $snapshot(end,n22->n46)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n22->n46\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n46->n22); set e $snapshot(end,n46->n22)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n46->n22\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n23->n47); set e $snapshot(end,n23->n47)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n23->n47\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n47->n23); set e $snapshot(end,n47->n23)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n47->n23\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n23->n48); set e $snapshot(end,n23->n48)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n23->n48\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n48->n23); set e $snapshot(end,n48->n23)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n48->n23\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n24->n49); set e $snapshot(end,n24->n49)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n24->n49\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n49->n24); set e $snapshot(end,n49->n24)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n49->n24\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n24->n50); set e $snapshot(end,n24->n50)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n24->n50\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n50->n24); set e $snapshot(end,n50->n24)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n50->n24\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n25->n51); set e $snapshot(end,n25->n51)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n25->n51\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n51->n25); set e $snapshot(end,n51->n25)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n51->n25\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n25->n52); set e $snapshot(end,n25->n52)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n25->n52\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n52->n25); set e $snapshot(end,n52->n25)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n52->n25\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n26->n53); set e $snapshot(end,n26->n53)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n26->n53\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n53->n26); set e $snapshot(end,n53->n26)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n53->n26\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n26->n54); set e $snapshot(end,n26->n54)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n26->n54\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n54->n26); set e $snapshot(end,n54->n26)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n54->n26\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n27->n55); set e $snapshot(end,n27->n55)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n27->n55\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n55->n27); set e $snapshot(end,n55->n27)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n55->n27\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n27->n56); set e $snapshot(end,n27->n56)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n27->n56\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n56->n27); set e $snapshot(end,n56->n27)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n56->n27\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n28->n57); set e $snapshot(end,n28->n57)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n28->n57\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n57->n28); set e $snapshot(end,n57->n28)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n57->n28\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n28->n58); set e $snapshot(end,n28->n58)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n28->n58\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n58->n28); set e $snapshot(end,n58->n28)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n58->n28\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n29->n59); set e $snapshot(end,n29->n59)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n29->n59\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n59->n29); set e $snapshot(end,n59->n29)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n59->n29\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n29->n60); set e $snapshot(end,n29->n60)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n29->n60\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n60->n29); set e $snapshot(end,n60->n29)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n60->n29\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n30->n61); set e $snapshot(end,n30->n61)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n30->n61\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n61->n30); set e $snapshot(end,n61->n30)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n61->n30\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n30->n62); set e $snapshot(end,n30->n62)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n30->n62\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  set b $snapshot(warm,n62->n30); set e $snapshot(end,n62->n30)
  set qsum [expr {[lindex $e 3] - [lindex $b 3]}]
  lappend parts "\"link:n62->n30\": {\"utilization\": [expr {([lindex $e 0] - [lindex $b 0]) * 8.0 / (500000 * $span)}], \"drops\": [expr {[lindex $e 2] - [lindex $b 2]}], \"tx_packets\": [expr {[lindex $e 1] - [lindex $b 1]}], \"mean_queue_packets\": [expr {$qsum / $span}]}"
  puts "CCSIM-NS2-RESULT {[join $parts {, }]}"
  exit 0
}
$ns at 0 "snap warm"
$ns at 60 "finish"
$ns at 0.1 "sample"
set qtrace [open {fusion.tr} w]
$ns run

// ns3_scenarios.cc: the ns-3 3.44 side of ccsim's cross-validation suite (validation/ns3/run.py).
//
// A chain of routers r0 .. rH joined by H bottleneck links (rate B, one-way delay D, Q packets);
// every flow has its own sender and receiver, each on an access link to the router where the
// flow enters or leaves the chain.
//
//   topology=dumbbell   : H = 1; N flows r0 -> r1
//   topology=parkinglot : H = hops; N long flows r0 -> rH, then crossN flows per hop r(h) -> r(h+1)
//
// Flows are BulkSend -> PacketSink TCP of one congestion control:
//   newreno : TcpNewReno          sack : TcpNewReno (with --sack=true)
//   cubic   : TcpCubic (ns-3's HyStart on, its default)
//   dctcp   : TcpDctcp; every bottleneck's forward direction is a RedQueueDisc used as a step
//             marker (MinTh = MaxTh = K, QW = 1, Gentle off, UseEcn, no hard drop; limit Q - 1
//             in the queue disc plus the one-packet device queue), the reverse direction a FIFO
//   vegas   : TcpVegas (ns-3's alpha 2, beta 4, gamma 1)
//   bbr     : TcpBbr (BBR v1, ns-3's defaults: high gain 2.89, bandwidth window 10 rounds,
//             min-RTT window 10 s, PROBE_RTT 200 ms), TcpSocketState::EnablePacing on (BBR
//             paces; ns-3 leaves the initial window unpaced, PaceInitialWindow false); ns-3
//             runs no recovery algorithm for it (HasCongControl: TcpBbr sets the window)
// SACK and the recovery algorithm are separate options (--sack, --recovery).
//
// Without DCTCP no queue disc is installed anywhere: flow control is disabled on every device,
// so each link is a PointToPointNetDevice with a DropTailQueue<Packet> of its size.
//
// One JSON object is printed on stdout: per flow the start time, in-order goodput in
// [warmup, T] (bytes the PacketSink received), drops at the bottlenecks, data segments sent and
// retransmitted, timeouts and fast recoveries in the window, and the congestion window when
// ssthresh is first set; per bottleneck hop the utilisation of the forward
// direction (bytes that left the device queue), drops and CE marks in the window and the mean
// queue (device queue plus queue disc, sampled every sampleMs); Jain's index of the goodputs;
// and the wall time of Simulator::Run. For BBR also, per flow, its entries into PROBE_RTT and
// the time spent there (from TcpBbr's CwndGain trace: 2.89 in STARTUP and DRAIN, 2 in
// PROBE_BW, 1 in PROBE_RTT), and with --traceCwnd its gains and pacing rate over time.
//
// Build: validation/ns3/build.sh (plain g++ against the headers and libraries of the ns3 wheel).

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

std::string
JsonNum(double v)
{
    if (!std::isfinite(v))
    {
        return "null";
    }
    char buf[64];
    std::snprintf(buf, sizeof(buf), "%.10g", v);
    return buf;
}

template <typename T>
std::string
JsonArr(const std::vector<T>& v)
{
    std::ostringstream os;
    os << "[";
    for (size_t i = 0; i < v.size(); ++i)
    {
        os << (i ? "," : "");
        if constexpr (std::is_floating_point_v<T>)
        {
            os << JsonNum(v[i]);
        }
        else
        {
            os << v[i];
        }
    }
    os << "]";
    return os.str();
}

// Bytes that have left a device queue (started transmission), modulo 2^32: ns-3's queue
// counters are uint32_t. A DropTail queue never drops after dequeue, so everything accepted
// and no longer queued has been dequeued.
uint32_t
DequeuedBytes32(Ptr<Queue<Packet>> q)
{
    return q->GetTotalReceivedBytes() - q->GetTotalDroppedBytesAfterDequeue() - q->GetNBytes();
}

struct Hop
{
    Ptr<Queue<Packet>> devQ;  // forward device queue r(h) -> r(h+1)
    Ptr<QueueDisc> qdisc;     // forward queue disc (DCTCP only)
    uint32_t lastDeq32 = 0;
    uint64_t deqBytesWindow = 0;
    double qSum = 0;
    uint64_t qSamples = 0;
    uint64_t dropsAtWarmup = 0;
    uint64_t marksAtWarmup = 0;

    uint64_t Drops() const
    {
        uint64_t d = devQ->GetTotalDroppedPackets();
        if (qdisc)
        {
            d += qdisc->GetStats().nTotalDroppedPackets;
        }
        return d;
    }

    uint64_t Marks() const
    {
        return qdisc ? qdisc->GetStats().nTotalMarkedPackets : 0;
    }

    uint32_t Queued() const
    {
        return devQ->GetNPackets() + (qdisc ? qdisc->GetNPackets() : 0);
    }
};

struct FlowState
{
    uint32_t cwnd = 0;
    uint32_t maxCwnd = 0;
    int64_t ssExitCwnd = -1; // bytes; -1 until ssthresh is first set
    bool sentAny = false;
    SequenceNumber32 highTx{0}; // end of the highest data sent
    // In the window [warmup, T]:
    uint64_t txData = 0;     // data segments sent
    uint64_t retx = 0;       // of which below the highest sent before (retransmissions)
    uint64_t timeouts = 0;   // entries into CA_LOSS
    uint64_t recoveries = 0; // entries into CA_RECOVERY
    // BBR (whole run): entries into PROBE_RTT, seconds spent there, and when the last began
    uint64_t probeRttEntries = 0;
    double probeRttS = 0;
    double probeRttSince = -1;
    std::vector<double> probeRttStarts;
};

struct Harness
{
    std::vector<Hop> hops;
    std::vector<FlowState> flows;
    std::vector<Ptr<PacketSink>> sinks;
    std::vector<uint64_t> rxAtWarmup;
    std::map<uint32_t, uint32_t> srcToFlow; // sender address -> flow index
    std::vector<uint64_t> dropsPerFlowWindow;
    bool inWindow = false;
    double sampleS = 0.01;
    double endS = 0;
    std::FILE* cwndOut = nullptr;
    bool bbr = false;
};

Harness g;

void
OnCwnd(uint32_t flow, uint32_t, uint32_t newV)
{
    FlowState& f = g.flows[flow];
    f.cwnd = newV;
    // ns-3 sets cwnd = ssthresh when a fast recovery ends, also under TcpBbr, whose ssthresh
    // is "infinite" until STARTUP ends: that value lasts until the next ACK and is left out.
    if (f.ssExitCwnd < 0 && newV < std::numeric_limits<uint32_t>::max() / 2)
    {
        f.maxCwnd = std::max(f.maxCwnd, newV);
    }
    if (g.cwndOut)
    {
        std::fprintf(g.cwndOut, "%.6f %u %u\n", Simulator::Now().GetSeconds(), flow, newV);
    }
}

void
OnSsthresh(uint32_t flow, uint32_t, uint32_t newV)
{
    FlowState& f = g.flows[flow];
    // The initial threshold is "infinite" (UINT32_MAX); the first finite value ends slow start.
    if (f.ssExitCwnd < 0 && newV < std::numeric_limits<uint32_t>::max() / 2)
    {
        f.ssExitCwnd = f.cwnd < std::numeric_limits<uint32_t>::max() / 2 ? std::max(f.maxCwnd, f.cwnd)
                                                                         : f.maxCwnd;
    }
    if (g.cwndOut)
    {
        std::fprintf(g.cwndOut, "%.6f %u ssthresh %u\n", Simulator::Now().GetSeconds(), flow, newV);
    }
}

void
OnTx(uint32_t flow, Ptr<const Packet> p, const TcpHeader& h, Ptr<const TcpSocketBase>)
{
    if (p->GetSize() == 0)
    {
        return;
    }
    FlowState& f = g.flows[flow];
    SequenceNumber32 end = h.GetSequenceNumber() + p->GetSize();
    bool retx = f.sentAny && !(f.highTx < end);
    if (g.inWindow)
    {
        f.txData++;
        f.retx += retx ? 1 : 0;
    }
    if (!f.sentAny || f.highTx < end)
    {
        f.highTx = end;
        f.sentAny = true;
    }
}

void
OnCongState(uint32_t flow, TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t newV)
{
    FlowState& f = g.flows[flow];
    if (g.inWindow)
    {
        f.timeouts += newV == TcpSocketState::CA_LOSS ? 1 : 0;
        f.recoveries += newV == TcpSocketState::CA_RECOVERY ? 1 : 0;
    }
    if (g.cwndOut)
    {
        std::fprintf(g.cwndOut, "%.6f %u state %d\n", Simulator::Now().GetSeconds(), flow, int(newV));
    }
}

// TcpBbr's window gain tells its mode: 1 only in PROBE_RTT.
void
OnBbrCwndGain(uint32_t flow, double, double newV)
{
    FlowState& f = g.flows[flow];
    const double now = Simulator::Now().GetSeconds();
    if (newV == 1.0 && f.probeRttSince < 0)
    {
        f.probeRttSince = now;
        f.probeRttEntries++;
        f.probeRttStarts.push_back(now);
    }
    else if (newV != 1.0 && f.probeRttSince >= 0)
    {
        f.probeRttS += now - f.probeRttSince;
        f.probeRttSince = -1;
    }
    if (g.cwndOut)
    {
        std::fprintf(g.cwndOut, "%.6f %u cwndgain %g\n", now, flow, newV);
    }
}

void
OnBbrPacingGain(uint32_t flow, double, double newV)
{
    std::fprintf(g.cwndOut, "%.6f %u pacinggain %g\n", Simulator::Now().GetSeconds(), flow, newV);
}

void
OnPacingRate(uint32_t flow, DataRate, DataRate newV)
{
    std::fprintf(g.cwndOut, "%.6f %u pacingrate %llu\n", Simulator::Now().GetSeconds(), flow,
                 static_cast<unsigned long long>(newV.GetBitRate()));
}

void
HookSocket(uint32_t flow, uint32_t nodeId)
{
    std::string base = "/NodeList/" + std::to_string(nodeId) + "/$ns3::TcpL4Protocol/SocketList/0/";
    Config::ConnectWithoutContext(base + "CongestionWindow", MakeBoundCallback(&OnCwnd, flow));
    Config::ConnectWithoutContext(base + "SlowStartThreshold", MakeBoundCallback(&OnSsthresh, flow));
    Config::ConnectWithoutContext(base + "Tx", MakeBoundCallback(&OnTx, flow));
    Config::ConnectWithoutContext(base + "CongState", MakeBoundCallback(&OnCongState, flow));
    if (g.bbr)
    {
        Config::ConnectWithoutContext(base + "CongestionOps/$ns3::TcpBbr/CwndGain",
                                      MakeBoundCallback(&OnBbrCwndGain, flow));
        if (g.cwndOut)
        {
            Config::ConnectWithoutContext(base + "CongestionOps/$ns3::TcpBbr/PacingGain",
                                          MakeBoundCallback(&OnBbrPacingGain, flow));
            Config::ConnectWithoutContext(base + "PacingRate", MakeBoundCallback(&OnPacingRate, flow));
        }
    }
}

void
AttributeDrop(Ptr<const Packet> p, bool hasPpp)
{
    if (!g.inWindow)
    {
        return;
    }
    Ptr<Packet> c = p->Copy();
    if (hasPpp)
    {
        PppHeader ppp;
        c->RemoveHeader(ppp);
    }
    Ipv4Header ip;
    if (c->PeekHeader(ip))
    {
        auto it = g.srcToFlow.find(ip.GetSource().Get());
        if (it != g.srcToFlow.end())
        {
            g.dropsPerFlowWindow[it->second]++;
        }
    }
}

void
OnDeviceDrop(Ptr<const Packet> p)
{
    AttributeDrop(p, true);
}

void
OnQdiscDrop(Ptr<const QueueDiscItem> item)
{
    Ptr<const Ipv4QueueDiscItem> ipItem = DynamicCast<const Ipv4QueueDiscItem>(item);
    if (g.inWindow && ipItem)
    {
        auto it = g.srcToFlow.find(ipItem->GetHeader().GetSource().Get());
        if (it != g.srcToFlow.end())
        {
            g.dropsPerFlowWindow[it->second]++;
        }
    }
}

void
OnQdiscMark(uint32_t hop, Ptr<const QueueDiscItem>, const char*)
{
    std::fprintf(g.cwndOut, "%.6f hop %u mark\n", Simulator::Now().GetSeconds(), hop);
}

void
AccumulateDeq()
{
    for (Hop& h : g.hops)
    {
        uint32_t now32 = DequeuedBytes32(h.devQ);
        h.deqBytesWindow += static_cast<uint32_t>(now32 - h.lastDeq32); // wrap-safe
        h.lastDeq32 = now32;
    }
}

void
Sample()
{
    AccumulateDeq();
    for (Hop& h : g.hops)
    {
        h.qSum += h.Queued();
        h.qSamples++;
    }
    if (Simulator::Now().GetSeconds() + g.sampleS < g.endS - 1e-12)
    {
        Simulator::Schedule(Seconds(g.sampleS), &Sample);
    }
}

void
MarkWarmup()
{
    g.inWindow = true;
    for (Hop& h : g.hops)
    {
        h.lastDeq32 = DequeuedBytes32(h.devQ);
        h.deqBytesWindow = 0;
        h.dropsAtWarmup = h.Drops();
        h.marksAtWarmup = h.Marks();
    }
    for (size_t i = 0; i < g.sinks.size(); ++i)
    {
        g.rxAtWarmup[i] = g.sinks[i]->GetTotalRx();
    }
    if (g.sampleS > 0)
    {
        Sample();
    }
}

std::string
AttrDefault(const std::string& cls, const std::string& attr)
{
    TypeId tid = TypeId::LookupByName(cls);
    TypeId::AttributeInformation info;
    if (!tid.LookupAttributeByName(attr, &info))
    {
        return "?";
    }
    return info.initialValue->SerializeToString(info.checker);
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string topology = "dumbbell";
    std::string cc = "sack";
    uint32_t nFlows = 1;
    uint32_t hopsArg = 3;
    uint32_t crossN = 1;
    double bMbps = 10;
    double dMs = 20;
    uint32_t qPkts = 100;
    uint32_t kPkts = 20;
    double simT = 30;
    uint32_t seed = 1;
    double warmup = -1;
    double accessMbps = -1;
    double accessMs = 1;
    uint32_t accessQ = 1000;
    uint32_t segSize = 1000;
    bool sack = true;
    std::string recovery = "prr";
    double startJitter = 1.0;
    double sampleMs = 10;
    std::string traceCwnd;

    CommandLine cmd(__FILE__);
    cmd.AddValue("topology", "dumbbell | parkinglot", topology);
    cmd.AddValue("cc", "newreno | sack | cubic | dctcp | vegas | bbr", cc);
    cmd.AddValue("N", "flows (dumbbell) or long flows (parking lot)", nFlows);
    cmd.AddValue("hops", "bottleneck hops of the parking lot", hopsArg);
    cmd.AddValue("crossN", "cross flows per hop of the parking lot", crossN);
    cmd.AddValue("B", "bottleneck rate, Mbit/s", bMbps);
    cmd.AddValue("D", "one-way delay of each bottleneck hop, ms", dMs);
    cmd.AddValue("Q", "bottleneck queue, packets waiting", qPkts);
    cmd.AddValue("K", "DCTCP marking threshold, packets waiting", kPkts);
    cmd.AddValue("T", "simulated seconds", simT);
    cmd.AddValue("seed", "RNG run number (RngSeed 1, RngRun = seed)", seed);
    cmd.AddValue("warmup", "seconds left out of the measurements (<0: 0.2 T)", warmup);
    cmd.AddValue("accessRate", "access link rate, Mbit/s (<0: 10 B)", accessMbps);
    cmd.AddValue("accessDelay", "access link one-way delay, ms", accessMs);
    cmd.AddValue("accessQ", "access link queue, packets", accessQ);
    cmd.AddValue("segSize", "TCP SegmentSize, payload bytes", segSize);
    cmd.AddValue("sack", "TCP SACK option", sack);
    cmd.AddValue("recovery", "prr (ns-3's default) | classic", recovery);
    cmd.AddValue("startJitter", "flow i starts at U[0, startJitter) s", startJitter);
    cmd.AddValue("sampleMs", "queue sampling period, ms (0: off)", sampleMs);
    cmd.AddValue("traceCwnd",
                 "write 'time flow cwnd', 'time flow ssthresh value', 'time flow state value' and 'time hop h mark' lines here",
                 traceCwnd);
    cmd.Parse(argc, argv);

    const std::map<std::string, TypeId> ccTypes = {{"newreno", TcpNewReno::GetTypeId()},
                                                   {"sack", TcpNewReno::GetTypeId()},
                                                   {"cubic", TcpCubic::GetTypeId()},
                                                   {"dctcp", TcpDctcp::GetTypeId()},
                                                   {"vegas", TcpVegas::GetTypeId()},
                                                   {"bbr", TcpBbr::GetTypeId()}};
    if (!ccTypes.count(cc))
    {
        std::fprintf(stderr, "unknown cc %s\n", cc.c_str());
        return 2;
    }
    if (topology != "dumbbell" && topology != "parkinglot")
    {
        std::fprintf(stderr, "unknown topology %s\n", topology.c_str());
        return 2;
    }
    if (recovery != "prr" && recovery != "classic")
    {
        std::fprintf(stderr, "unknown recovery %s\n", recovery.c_str());
        return 2;
    }
    const bool dctcp = cc == "dctcp";
    if (dctcp && (kPkts < 2 || kPkts >= qPkts))
    {
        std::fprintf(stderr, "K must be in [2, Q)\n");
        return 2;
    }
    const uint32_t nHops = topology == "dumbbell" ? 1 : hopsArg;
    if (topology == "dumbbell")
    {
        crossN = 0;
    }
    if (warmup < 0)
    {
        warmup = 0.2 * simT;
    }
    if (accessMbps < 0)
    {
        accessMbps = 10 * bMbps;
    }

    // Flow f enters the chain at router entry[f] and leaves it at exitR[f].
    std::vector<uint32_t> entry;
    std::vector<uint32_t> exitR;
    for (uint32_t i = 0; i < nFlows; ++i)
    {
        entry.push_back(0);
        exitR.push_back(nHops);
    }
    for (uint32_t h = 0; h < nHops && crossN > 0; ++h)
    {
        for (uint32_t j = 0; j < crossN; ++j)
        {
            entry.push_back(h);
            exitR.push_back(h + 1);
        }
    }
    const uint32_t nTotal = entry.size();

    const double maxRttS = 2 * (2 * accessMs + nHops * dMs) / 1000.0;
    const double wirePkt = segSize + 20 + 12 + 20 + 2; // payload + TCP + timestamps + IP + PPP
    // Send and receive buffers never limit a flow: twice the larger of what the bottleneck and
    // an access link can hold (rate x longest base RTT + queue), at least 1 MiB.
    double pipeBtl = bMbps * 1e6 / 8 * maxRttS + qPkts * wirePkt;
    double pipeAcc = accessMbps * 1e6 / 8 * maxRttS + accessQ * wirePkt;
    uint64_t sndBuf = std::max<uint64_t>(1 << 20, static_cast<uint64_t>(2 * std::min(pipeBtl, pipeAcc)));
    sndBuf = std::min<uint64_t>(sndBuf, 0xFFFFFFFFull);
    uint64_t rcvBuf = std::min<uint64_t>(std::max<uint64_t>(sndBuf, 16u << 20), 0xFFFFFFFFull);

    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(seed);

    Config::SetDefault("ns3::TcpL4Protocol::SocketType", TypeIdValue(ccTypes.at(cc)));
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(segSize));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(sndBuf));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(rcvBuf));
    Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(sack));
    g.bbr = cc == "bbr";
    if (g.bbr)
    {
        // TcpBbr turns pacing on itself if it is off (with a warning); set it as BBR requires.
        Config::SetDefault("ns3::TcpSocketState::EnablePacing", BooleanValue(true));
    }
    Config::SetDefault("ns3::TcpL4Protocol::RecoveryType",
                       TypeIdValue(recovery == "classic" ? TcpClassicRecovery::GetTypeId()
                                                         : TcpPrrRecovery::GetTypeId()));

    NodeContainer routers;
    routers.Create(nHops + 1);
    NodeContainer senders;
    NodeContainer receivers;
    senders.Create(nTotal);
    receivers.Create(nTotal);

    PointToPointHelper access;
    access.SetDeviceAttribute("DataRate", DataRateValue(DataRate(uint64_t(accessMbps * 1e6))));
    access.SetChannelAttribute("Delay", TimeValue(MicroSeconds(int64_t(accessMs * 1000))));
    access.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize",
                    QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, accessQ)));
    access.DisableFlowControl();

    PointToPointHelper btl;
    btl.SetDeviceAttribute("DataRate", DataRateValue(DataRate(uint64_t(bMbps * 1e6))));
    btl.SetChannelAttribute("Delay", TimeValue(MicroSeconds(int64_t(dMs * 1000))));
    // With DCTCP the queue disc holds the backlog: the device queue holds one packet waiting
    // behind the one on the wire, and flow control moves the next one down when it leaves.
    btl.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize",
                 QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, dctcp ? 1 : qPkts)));
    if (!dctcp)
    {
        btl.DisableFlowControl();
    }

    std::vector<NetDeviceContainer> btlDev(nHops);
    for (uint32_t h = 0; h < nHops; ++h)
    {
        btlDev[h] = btl.Install(routers.Get(h), routers.Get(h + 1));
    }
    std::vector<NetDeviceContainer> sDev(nTotal);
    std::vector<NetDeviceContainer> rDev(nTotal);
    for (uint32_t i = 0; i < nTotal; ++i)
    {
        sDev[i] = access.Install(senders.Get(i), routers.Get(entry[i]));
        rDev[i] = access.Install(routers.Get(exitR[i]), receivers.Get(i));
    }

    InternetStackHelper stack;
    stack.Install(routers);
    stack.Install(senders);
    stack.Install(receivers);

    g.hops.resize(nHops);
    if (dctcp)
    {
        // Installed before the addresses, so Ipv4AddressHelper::Assign adds no default queue disc.
        TrafficControlHelper red;
        red.SetRootQueueDisc("ns3::RedQueueDisc",
                             "MaxSize", QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, qPkts - 1)),
                             "MinTh", DoubleValue(kPkts),
                             "MaxTh", DoubleValue(kPkts),
                             "QW", DoubleValue(1.0),
                             "Gentle", BooleanValue(false),
                             "UseEcn", BooleanValue(true),
                             "UseHardDrop", BooleanValue(false),
                             "LinkBandwidth", DataRateValue(DataRate(uint64_t(bMbps * 1e6))),
                             "LinkDelay", TimeValue(MicroSeconds(int64_t(dMs * 1000))));
        TrafficControlHelper fifo;
        fifo.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize",
                              QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, qPkts - 1)));
        for (uint32_t h = 0; h < nHops; ++h)
        {
            QueueDiscContainer qd = red.Install(btlDev[h].Get(0));
            g.hops[h].qdisc = qd.Get(0);
            fifo.Install(btlDev[h].Get(1));
        }
    }

    Ipv4AddressHelper addr;
    addr.SetBase("10.0.0.0", "255.255.255.252");
    for (uint32_t h = 0; h < nHops; ++h)
    {
        addr.Assign(btlDev[h]);
        addr.NewNetwork();
    }
    std::vector<Ipv4Address> senderAddr(nTotal);
    std::vector<Ipv4Address> recvAddr(nTotal);
    addr.SetBase("10.1.0.0", "255.255.255.252");
    for (uint32_t i = 0; i < nTotal; ++i)
    {
        senderAddr[i] = addr.Assign(sDev[i]).GetAddress(0);
        addr.NewNetwork();
    }
    addr.SetBase("10.128.0.0", "255.255.255.252");
    for (uint32_t i = 0; i < nTotal; ++i)
    {
        recvAddr[i] = addr.Assign(rDev[i]).GetAddress(1);
        addr.NewNetwork();
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    const uint16_t port = 5000;
    Ptr<UniformRandomVariable> startRv = CreateObject<UniformRandomVariable>();
    startRv->SetStream(1);
    std::vector<double> startS(nTotal);
    g.flows.assign(nTotal, FlowState());
    g.sinks.resize(nTotal);
    g.rxAtWarmup.assign(nTotal, 0);
    g.dropsPerFlowWindow.assign(nTotal, 0);
    for (uint32_t i = 0; i < nTotal; ++i)
    {
        g.srcToFlow[senderAddr[i].Get()] = i;
        PacketSinkHelper sinkH("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port));
        ApplicationContainer sa = sinkH.Install(receivers.Get(i));
        sa.Start(Seconds(0));
        sa.Stop(Seconds(simT));
        g.sinks[i] = DynamicCast<PacketSink>(sa.Get(0));

        startS[i] = startJitter > 0 ? startRv->GetValue(0, startJitter) : 0.0;
        BulkSendHelper bs("ns3::TcpSocketFactory", InetSocketAddress(recvAddr[i], port));
        bs.SetAttribute("MaxBytes", UintegerValue(0));
        bs.SetAttribute("SendSize", UintegerValue(segSize));
        ApplicationContainer ca = bs.Install(senders.Get(i));
        ca.Start(Seconds(startS[i]));
        ca.Stop(Seconds(simT));
        // The socket exists once the application has started.
        Simulator::Schedule(Seconds(startS[i]) + NanoSeconds(1), &HookSocket, i, senders.Get(i)->GetId());
    }

    for (uint32_t h = 0; h < nHops; ++h)
    {
        Ptr<PointToPointNetDevice> fwd = DynamicCast<PointToPointNetDevice>(btlDev[h].Get(0));
        g.hops[h].devQ = fwd->GetQueue();
        g.hops[h].devQ->TraceConnectWithoutContext("Drop", MakeCallback(&OnDeviceDrop));
        if (g.hops[h].qdisc)
        {
            g.hops[h].qdisc->TraceConnectWithoutContext("Drop", MakeCallback(&OnQdiscDrop));
        }
    }
    if (!traceCwnd.empty())
    {
        g.cwndOut = std::fopen(traceCwnd.c_str(), "w");
        for (uint32_t h = 0; h < nHops; ++h)
        {
            if (g.hops[h].qdisc)
            {
                g.hops[h].qdisc->TraceConnectWithoutContext("Mark", MakeBoundCallback(&OnQdiscMark, h));
            }
        }
    }
    g.sampleS = sampleMs / 1000.0;
    g.endS = simT;
    Simulator::Schedule(Seconds(warmup), &MarkWarmup);
    Simulator::Stop(Seconds(simT));

    auto t0 = std::chrono::steady_clock::now();
    Simulator::Run();
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    uint64_t events = Simulator::GetEventCount();

    AccumulateDeq();
    const double winS = simT - warmup;
    std::vector<double> goodput(nTotal);
    std::vector<uint64_t> rxBytes(nTotal);
    std::vector<int64_t> ssExit(nTotal);
    double sum = 0;
    double sumSq = 0;
    for (uint32_t i = 0; i < nTotal; ++i)
    {
        rxBytes[i] = g.sinks[i]->GetTotalRx();
        goodput[i] = (rxBytes[i] - g.rxAtWarmup[i]) * 8.0 / winS / 1e6;
        sum += goodput[i];
        sumSq += goodput[i] * goodput[i];
        ssExit[i] = g.flows[i].ssExitCwnd;
    }
    std::vector<double> util(nHops);
    std::vector<double> qMean(nHops);
    std::vector<uint64_t> drops(nHops);
    std::vector<uint64_t> marks(nHops);
    for (uint32_t h = 0; h < nHops; ++h)
    {
        const Hop& hp = g.hops[h];
        util[h] = hp.deqBytesWindow * 8.0 / (bMbps * 1e6 * winS);
        qMean[h] = hp.qSamples ? hp.qSum / hp.qSamples : NAN;
        drops[h] = hp.Drops() - hp.dropsAtWarmup;
        marks[h] = hp.Marks() - hp.marksAtWarmup;
    }

    std::ostringstream js;
    js << "{\"sim\":\"ns-3.44\",\"topology\":\"" << topology << "\",\"cc\":\"" << cc << "\"";
    js << ",\"N\":" << nFlows << ",\"hops\":" << nHops << ",\"cross_n\":" << crossN
       << ",\"flows\":" << nTotal << ",\"B_mbps\":" << JsonNum(bMbps) << ",\"D_ms\":" << JsonNum(dMs)
       << ",\"Q_pkts\":" << qPkts << ",\"K_pkts\":" << (dctcp ? std::to_string(kPkts) : "null")
       << ",\"T_s\":" << JsonNum(simT) << ",\"warmup_s\":" << JsonNum(warmup) << ",\"seed\":" << seed
       << ",\"access_mbps\":" << JsonNum(accessMbps) << ",\"access_ms\":" << JsonNum(accessMs)
       << ",\"access_q_pkts\":" << accessQ << ",\"seg_size\":" << segSize
       << ",\"wire_size\":" << JsonNum(wirePkt) << ",\"sack\":" << (sack ? "true" : "false")
       << ",\"recovery\":\"" << recovery << "\",\"snd_buf\":" << sndBuf << ",\"rcv_buf\":" << rcvBuf;
    const std::vector<std::pair<std::string, std::string>> attrs = {
        {"ns3::TcpL4Protocol", "SocketType"},       {"ns3::TcpL4Protocol", "RecoveryType"},
        {"ns3::TcpSocket", "InitialCwnd"},          {"ns3::TcpSocket", "DelAckCount"},
        {"ns3::TcpSocket", "DelAckTimeout"},        {"ns3::TcpSocketBase", "Sack"},
        {"ns3::TcpSocketBase", "Timestamp"},        {"ns3::TcpSocketBase", "LimitedTransmit"},
        {"ns3::TcpSocketBase", "MinRto"},           {"ns3::TcpSocketBase", "ClockGranularity"},
        {"ns3::TcpSocketState", "EnablePacing"},    {"ns3::TcpCubic", "HyStart"},
        {"ns3::TcpVegas", "Alpha"},                 {"ns3::TcpVegas", "Beta"},
        {"ns3::TcpVegas", "Gamma"},                 {"ns3::TcpDctcp", "DctcpShiftG"},
        {"ns3::TcpSocketState", "PaceInitialWindow"}, {"ns3::TcpSocketState", "MaxPacingRate"},
        {"ns3::TcpBbr", "HighGain"},                {"ns3::TcpBbr", "BwWindowLength"},
        {"ns3::TcpBbr", "RttWindowLength"},         {"ns3::TcpBbr", "ProbeRttDuration"},
    };
    js << ",\"ns3_attrs\":{";
    for (size_t k = 0; k < attrs.size(); ++k)
    {
        js << (k ? "," : "") << "\"" << attrs[k].first.substr(5) << "::" << attrs[k].second << "\":\""
           << AttrDefault(attrs[k].first, attrs[k].second) << "\"";
    }
    js << "}";
    js << ",\"wall_s\":" << JsonNum(wall) << ",\"events\":" << events;
    js << ",\"start_s\":" << JsonArr(startS) << ",\"entry\":" << JsonArr(entry)
       << ",\"exit\":" << JsonArr(exitR);
    js << ",\"rx_bytes\":" << JsonArr(rxBytes) << ",\"goodput_mbps\":" << JsonArr(goodput)
       << ",\"goodput_sum_mbps\":" << JsonNum(sum)
       << ",\"jain\":" << JsonNum(sumSq > 0 ? sum * sum / (nTotal * sumSq) : NAN);
    js << ",\"ss_exit_cwnd_bytes\":" << JsonArr(ssExit);
    js << ",\"drops_per_flow_window\":" << JsonArr(g.dropsPerFlowWindow);
    std::vector<uint64_t> txData(nTotal);
    std::vector<uint64_t> retx(nTotal);
    std::vector<uint64_t> timeouts(nTotal);
    std::vector<uint64_t> recoveries(nTotal);
    for (uint32_t i = 0; i < nTotal; ++i)
    {
        txData[i] = g.flows[i].txData;
        retx[i] = g.flows[i].retx;
        timeouts[i] = g.flows[i].timeouts;
        recoveries[i] = g.flows[i].recoveries;
    }
    std::vector<uint64_t> probeRttEntries(nTotal);
    std::vector<double> probeRttS(nTotal);
    std::ostringstream starts;
    starts << "[";
    for (uint32_t i = 0; i < nTotal; ++i)
    {
        FlowState& f = g.flows[i];
        if (f.probeRttSince >= 0)
        {
            f.probeRttS += simT - f.probeRttSince;
        }
        probeRttEntries[i] = f.probeRttEntries;
        probeRttS[i] = f.probeRttS;
        starts << (i ? "," : "") << JsonArr(f.probeRttStarts);
    }
    starts << "]";
    js << ",\"bbr_probe_rtt_entries\":" << JsonArr(probeRttEntries)
       << ",\"bbr_probe_rtt_s\":" << JsonArr(probeRttS) << ",\"bbr_probe_rtt_starts\":" << starts.str();
    js << ",\"tx_data_pkts_window\":" << JsonArr(txData) << ",\"retx_pkts_window\":" << JsonArr(retx)
       << ",\"timeouts_window\":" << JsonArr(timeouts) << ",\"recoveries_window\":" << JsonArr(recoveries);
    js << ",\"util\":" << JsonArr(util) << ",\"queue_mean_pkts\":" << JsonArr(qMean)
       << ",\"drops_window\":" << JsonArr(drops) << ",\"marks_window\":" << JsonArr(marks);
    js << "}";
    Simulator::Destroy();
    if (g.cwndOut)
    {
        std::fclose(g.cwndOut);
    }
    std::printf("%s\n", js.str().c_str());
    return 0;
}

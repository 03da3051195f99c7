// ns3_fattree.cc: the ns-3 3.44 side of ccsim's datacenter cross-check (validation/ns3/fattree.py).
//
// The fabric is read from a links file written by fattree.py from ccsim's canonical spec: the
// hosts in the order ccsim's `hosts = "all"` lists them (a flow file's host numbers), then one
// link a line, `a b core`, in ccsim's order (`core` 1 for the links whose utilisation is
// reported). Every link has the same rate and one-way delay; every egress port, the hosts'
// included, is a RedQueueDisc used as DCTCP's step marker (MinTh = MaxTh = K, QW = 1, Gentle off,
// UseEcn, no hard drop; limit Q - 1 in the queue disc plus the one-packet device queue), as
// ns3_scenarios.cc does for its dumbbells.
//
// Routing, --routing:
//   single : static host routes that are ccsim's `multipath = "none"` tables: toward each host,
//            every node takes the lowest-indexed link among those that start a shortest path
//            (ccsim numbers link m's directions 2m, a->b, and 2m + 1; all delays are equal, so
//            shortest is fewest hops);
//   spray  : global routing with Ipv4GlobalRouting::RandomEcmpRouting, a uniform draw among the
//            equal-cost next hops for every packet (ccsim's `multipath = "spray"`). ns-3.44's TCP
//            aborts on the reordering this brings at most loads (NS_ASSERT "From OPEN->DISORDER
//            but with 4 dup ACKs", tcp-socket-base.cc:1763); ns-3.44 has no per-flow hash.
//
// Flows: HPCC's flow-file format (`ccsim flows`): the count, then `src dst 3 100 bytes start_s`
// a line. Each flow is a TcpDctcp socket of host src that connects at start_s to the PacketSink
// of host dst (port 100) and, once connected, hands it all its bytes at once (the send buffer
// holds the largest flow); it is never closed, since ns-3.44 crashes processing a SACK block in
// FIN_WAIT (TcpTxBuffer::Update from ProcessWait), which BulkSendApplication's close runs into.
// Its completion time runs from its start (the three-way handshake included) to the sender's
// receipt of the acknowledgement of its last byte (HighestRxAck = bytes + 1, the SYN taking
// one), as ccsim measures it.
// With --alone, flow i starts at i * gap instead: each runs alone on the empty fabric, the
// denominator of its slowdown.
//
// One JSON object is printed on stdout: per flow its completion time in ns (-1: not completed);
// the mean utilisation of the aggregation-core links, both directions, over [0, window]; the
// events processed and the wall time of Simulator::Run.
//
// Build: validation/ns3/build.sh ns3_fattree (plain g++ against the ns3 wheel).

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include <chrono>
#include <deque>
#include <limits>
#include <map>
#include <cstdio>
#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

struct Flow
{
    uint32_t src;
    uint32_t dst;
    uint64_t bytes;
    double start;
    Ptr<Socket> socket;
    int64_t fctNs = -1;
};

std::vector<Flow> g_flows;
uint64_t g_coreBytes = 0;
double g_window = 0;

void
OnAck(uint32_t i, SequenceNumber32, SequenceNumber32 now)
{
    Flow& f = g_flows[i];
    if (f.fctNs < 0 && uint64_t(now.GetValue()) >= f.bytes + 1)
    {
        f.fctNs = (Simulator::Now() - Seconds(f.start)).GetNanoSeconds();
    }
}

void
Connected(uint32_t i, Ptr<Socket> s)
{
    s->Send(Create<Packet>(uint32_t(g_flows[i].bytes)));
}

void
ConnectFailed(uint32_t i, Ptr<Socket>)
{
    std::fprintf(stderr, "flow %u could not connect\n", i);
}

void
StartFlow(uint32_t i, Ptr<Node> node, Address to)
{
    Ptr<Socket> s = Socket::CreateSocket(node, TcpSocketFactory::GetTypeId());
    g_flows[i].socket = s;
    s->TraceConnectWithoutContext("HighestRxAck", MakeBoundCallback(&OnAck, i));
    s->SetConnectCallback(MakeBoundCallback(&Connected, i), MakeBoundCallback(&ConnectFailed, i));
    s->Bind();
    s->Connect(to);
}

// Every core link direction's queue (queue disc plus device queue), sampled every 10 us.
struct Watched
{
    std::string name;
    Ptr<QueueDisc> qdisc;
    Ptr<Queue<Packet>> device;
    double sum = 0;
    uint64_t samples = 0;
};

std::vector<Watched> g_watched;

void
SampleQueues(double until)
{
    for (auto& w : g_watched)
    {
        w.sum += double(w.qdisc->GetNPackets() + w.device->GetNPackets());
        w.samples += 1;
    }
    if (Simulator::Now().GetSeconds() + 10e-6 < until)
    {
        Simulator::Schedule(MicroSeconds(10), &SampleQueues, until);
    }
}

void
OnCoreTx(Ptr<const Packet> p)
{
    if (Simulator::Now().GetSeconds() <= g_window)
    {
        g_coreBytes += p->GetSize();
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string linksFile;
    std::string routing = "single";
    double rateGbps = 10;
    double delayUs = 1;
    uint32_t qPkts = 500;
    uint32_t kPkts = 65;
    uint32_t segSize = 1446;
    double simT = 0.06;
    double window = 0.02;
    std::string flowFile;
    bool alone = false;
    double gap = 0.05;
    uint32_t seed = 1;
    uint32_t delAckCount = 1;

    CommandLine cmd(__FILE__);
    cmd.AddValue("links", "the links file (hosts line, then `a b core` lines)", linksFile);
    cmd.AddValue("routing", "single (ccsim's lowest-index tables) | spray (random ECMP)", routing);
    cmd.AddValue("rate", "every link's rate, Gbit/s", rateGbps);
    cmd.AddValue("delay", "every link's one-way delay, us", delayUs);
    cmd.AddValue("Q", "every egress port's queue, packets", qPkts);
    cmd.AddValue("K", "DCTCP marking threshold, packets waiting", kPkts);
    cmd.AddValue("segSize", "TCP SegmentSize, payload bytes", segSize);
    cmd.AddValue("T", "simulated seconds", simT);
    cmd.AddValue("window", "core utilisation is measured over [0, window] s", window);
    cmd.AddValue("flows", "HPCC flow file", flowFile);
    cmd.AddValue("alone", "start flow i at i * gap, each alone", alone);
    cmd.AddValue("gap", "seconds between flows with --alone", gap);
    cmd.AddValue("seed", "RNG run number (RngSeed 1, RngRun = seed)", seed);
    cmd.AddValue("delAckCount", "TcpSocket::DelAckCount (1: every segment acknowledged at once)",
                 delAckCount);
    cmd.Parse(argc, argv);
    g_window = window;

    std::ifstream in(flowFile);
    uint64_t count = 0;
    if (!(in >> count))
    {
        std::fprintf(stderr, "cannot read the flow count from %s\n", flowFile.c_str());
        return 2;
    }
    for (uint64_t i = 0; i < count; ++i)
    {
        Flow f{};
        uint32_t pg = 0;
        uint32_t port = 0;
        if (!(in >> f.src >> f.dst >> pg >> port >> f.bytes >> f.start))
        {
            std::fprintf(stderr, "bad flow line %llu in %s\n", (unsigned long long)(i + 2),
                         flowFile.c_str());
            return 2;
        }
        if (alone)
        {
            f.start = double(i) * gap;
        }
        g_flows.push_back(f);
    }
    if (alone)
    {
        simT = double(count) * gap + gap;
    }

    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(seed);
    Config::SetDefault("ns3::TcpL4Protocol::SocketType", TypeIdValue(TcpDctcp::GetTypeId()));
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(segSize));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(64u << 20));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(64u << 20));
    Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(true));
    Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(delAckCount));
    Config::SetDefault("ns3::Ipv4GlobalRouting::RandomEcmpRouting", BooleanValue(routing == "spray"));

    struct Link
    {
        uint32_t a;
        uint32_t b;
        bool core;
        NetDeviceContainer dev;
        Ipv4InterfaceContainer ifs;
    };
    std::ifstream lf(linksFile);
    std::string hostLine;
    if (!std::getline(lf, hostLine))
    {
        std::fprintf(stderr, "cannot read the hosts line of %s\n", linksFile.c_str());
        return 2;
    }
    std::map<std::string, uint32_t> index;
    std::vector<std::string> names;
    auto nodeOf = [&](const std::string& n) {
        auto it = index.find(n);
        if (it != index.end())
        {
            return it->second;
        }
        index[n] = uint32_t(names.size());
        names.push_back(n);
        return uint32_t(names.size() - 1);
    };
    std::vector<std::string> hostNames;
    {
        std::istringstream hs(hostLine);
        std::string h;
        while (hs >> h)
        {
            hostNames.push_back(h);
        }
    }
    std::vector<Link> links;
    std::string a;
    std::string b;
    int core = 0;
    while (lf >> a >> b >> core)
    {
        links.push_back(Link{nodeOf(a), nodeOf(b), core != 0, {}, {}});
    }
    for (const auto& h : hostNames)
    {
        if (!index.count(h))
        {
            std::fprintf(stderr, "host %s is on no link\n", h.c_str());
            return 2;
        }
    }
    for (const auto& f : g_flows)
    {
        if (f.src >= hostNames.size() || f.dst >= hostNames.size())
        {
            std::fprintf(stderr, "a flow names host %u of %zu\n", std::max(f.src, f.dst), hostNames.size());
            return 2;
        }
    }
    NodeContainer nodes;
    nodes.Create(names.size());

    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", DataRateValue(DataRate(uint64_t(rateGbps * 1e9))));
    p2p.SetChannelAttribute("Delay", TimeValue(NanoSeconds(int64_t(delayUs * 1000))));
    p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize",
                 QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, 1)));
    for (auto& l : links)
    {
        l.dev = p2p.Install(nodes.Get(l.a), nodes.Get(l.b));
    }

    InternetStackHelper stack;
    stack.InstallAll();
    TrafficControlHelper red;
    red.SetRootQueueDisc("ns3::RedQueueDisc",
                         "MaxSize", QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, qPkts - 1)),
                         "MinTh", DoubleValue(kPkts),
                         "MaxTh", DoubleValue(kPkts),
                         "QW", DoubleValue(1.0),
                         "Gentle", BooleanValue(false),
                         "UseEcn", BooleanValue(true),
                         "UseHardDrop", BooleanValue(false),
                         "LinkBandwidth", DataRateValue(DataRate(uint64_t(rateGbps * 1e9))),
                         "LinkDelay", TimeValue(NanoSeconds(int64_t(delayUs * 1000))));
    Ipv4AddressHelper addr;
    addr.SetBase("10.0.0.0", "255.255.255.252");
    for (auto& l : links)
    {
        red.Install(l.dev);
        l.ifs = addr.Assign(l.dev);
        addr.NewNetwork();
    }
    auto hostAddr = [&](uint32_t h) {
        return nodes.Get(index[hostNames[h]])->GetObject<Ipv4>()->GetAddress(1, 0).GetLocal();
    };
    if (routing == "spray")
    {
        Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    }
    else if (routing == "single")
    {
        // ccsim's tables: BFS from each host over the undirected graph; node u's next hop toward
        // it is the lowest-indexed simplex link u -> v with dist(v) = dist(u) - 1.
        std::vector<std::vector<std::pair<uint32_t, uint32_t>>> out(names.size());
        for (uint32_t m = 0; m < links.size(); ++m)
        {
            out[links[m].a].push_back({2 * m, m});
            out[links[m].b].push_back({2 * m + 1, m});
        }
        Ipv4StaticRoutingHelper helper;
        const uint32_t far = std::numeric_limits<uint32_t>::max();
        for (uint32_t h = 0; h < hostNames.size(); ++h)
        {
            uint32_t dst = index[hostNames[h]];
            std::vector<uint32_t> dist(names.size(), far);
            std::deque<uint32_t> q{dst};
            dist[dst] = 0;
            while (!q.empty())
            {
                uint32_t u = q.front();
                q.pop_front();
                for (auto [simplex, m] : out[u])
                {
                    uint32_t v = links[m].a == u ? links[m].b : links[m].a;
                    if (dist[v] == far)
                    {
                        dist[v] = dist[u] + 1;
                        q.push_back(v);
                    }
                }
            }
            for (uint32_t u = 0; u < names.size(); ++u)
            {
                if (u == dst || dist[u] == far)
                {
                    continue;
                }
                uint32_t best = far;
                uint32_t bestLink = 0;
                for (auto [simplex, m] : out[u])
                {
                    uint32_t v = links[m].a == u ? links[m].b : links[m].a;
                    if (dist[v] + 1 == dist[u] && simplex < best)
                    {
                        best = simplex;
                        bestLink = m;
                    }
                }
                const Link& l = links[bestLink];
                uint32_t mine = l.a == u ? 0 : 1;
                Ptr<Ipv4> ipv4 = nodes.Get(u)->GetObject<Ipv4>();
                int32_t ifIndex = ipv4->GetInterfaceForDevice(l.dev.Get(mine));
                helper.GetStaticRouting(ipv4)->AddHostRouteTo(hostAddr(h), l.ifs.GetAddress(1 - mine),
                                                              uint32_t(ifIndex));
            }
        }
    }
    else
    {
        std::fprintf(stderr, "unknown routing %s (single or spray)\n", routing.c_str());
        return 2;
    }
    uint32_t coreDirections = 0;
    for (auto& l : links)
    {
        if (l.core)
        {
            for (uint32_t end = 0; end < 2; ++end)
            {
                Ptr<NetDevice> dev = l.dev.Get(end);
                dev->TraceConnectWithoutContext("PhyTxEnd", MakeCallback(&OnCoreTx));
                ++coreDirections;
                Watched w;
                w.name = end == 0 ? names[l.a] + "->" + names[l.b] : names[l.b] + "->" + names[l.a];
                w.qdisc = dev->GetNode()->GetObject<TrafficControlLayer>()->GetRootQueueDiscOnDevice(dev);
                w.device = DynamicCast<PointToPointNetDevice>(dev)->GetQueue();
                g_watched.push_back(w);
            }
        }
    }
    Simulator::Schedule(MicroSeconds(10), &SampleQueues, window);

    const uint16_t port = 100;
    PacketSinkHelper sink("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port));
    NodeContainer hostNodes;
    for (const auto& h : hostNames)
    {
        hostNodes.Add(nodes.Get(index[h]));
    }
    ApplicationContainer sinks = sink.Install(hostNodes);
    sinks.Start(Seconds(0));
    uint64_t largest = 0;
    for (uint32_t i = 0; i < g_flows.size(); ++i)
    {
        Flow& f = g_flows[i];
        largest = std::max(largest, f.bytes);
        Simulator::Schedule(Seconds(f.start), &StartFlow, i, nodes.Get(index[hostNames[f.src]]),
                            Address(InetSocketAddress(hostAddr(f.dst), port)));
    }
    if (largest >= (64u << 20))
    {
        std::fprintf(stderr, "a flow of %llu bytes exceeds the 64 MiB send buffer\n",
                     (unsigned long long)largest);
        return 2;
    }

    Simulator::Stop(Seconds(simT));
    auto t0 = std::chrono::steady_clock::now();
    Simulator::Run();
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    uint64_t events = Simulator::GetEventCount();
    Simulator::Destroy();

    double capacity = double(coreDirections) * rateGbps * 1e9 / 8 * window;
    std::printf("{\"routing\": \"%s\", \"flows\": %zu, \"alone\": %s, \"core_utilization\": %.9f, "
                "\"events\": %llu, \"wall_seconds\": %.6f, ",
                routing.c_str(), g_flows.size(), alone ? "true" : "false",
                capacity > 0 ? double(g_coreBytes) / capacity : 0.0,
                (unsigned long long)events, wall);
    std::printf("\"mean_queue\": {");
    for (size_t i = 0; i < g_watched.size(); ++i)
    {
        const auto& w = g_watched[i];
        std::printf("%s\"%s\": %.6f", i ? ", " : "", w.name.c_str(),
                    w.samples ? w.sum / double(w.samples) : 0.0);
    }
    std::printf("}, \"fct_ns\": [");
    for (size_t i = 0; i < g_flows.size(); ++i)
    {
        std::printf("%s%lld", i ? ", " : "", (long long)g_flows[i].fctNs);
    }
    std::printf("]}\n");
    return 0;
}

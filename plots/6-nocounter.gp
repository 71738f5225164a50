# Blocking without a cycle counter (the m68k / MIPS R6000 case): with
# random.no_cycle_counter=1 the jitter loop gives up; stock returns at once,
# block waits until ready or the read timeout ("still waiting at T").
load 'plots/style.gp'
dat = datadir.'/nocounter.dat'
set xtics ()
do for [i=0:ngroups6-1] { set xtics add (value(sprintf('g6_%d', i)) i*(nvariants+1)+1.5) }
set xrange [-1:(ngroups6 > 0 ? ngroups6*(nvariants+1)-1 : 1)]
set logscale y
set yrange [0.001:1000000]
set format y '%g'
set ylabel 'first blocking /dev/urandom read returned (ms from kernel start, log)'
set title "No RDRAND (qemu64), with and without a usable cycle counter: ".clock."\n".caption
set key inside top left opaque box font ',8'
# A run without qemu64 cells (the guest matrix: cpu=max only) has no
# series: the reference line alone, and a label saying so.
if (strlen(nocounter_guest) == 0) { set label 1 'no cpu=qemu64 cell in this run' at graph 0.5,0.5 center }
eval 'plot '.(strlen(nocounter_guest) > 0 ? nocounter_guest.', ' : '')."750 with lines dt 3 lc rgb '#aa0000' title '750 ms'"

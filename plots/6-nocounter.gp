# Blocking without a cycle counter (the m68k / MIPS R6000 case): with
# random.no_cycle_counter=1 the jitter loop gives up; stock returns at once,
# block waits until ready or the read timeout ("still waiting at T"). A
# group per condition, a slot per variant of the run (prepare.py: the
# ticks' places, the time axis' range and ticks, which fit the data); the
# key below. prepare.py leaves the chart out of a run without qemu64 cells.
load 'plots/style.gp'
dat = datadir.'/nocounter.dat'
set xtics ()
do for [i=0:ngroups6-1] { set xtics add (value(sprintf('g6_%d', i)) value(sprintf('g6x_%d', i))) }
set xrange [-1:ngroups6*(nvariants+1)-1]
set logscale y
set yrange [ymin6:ymax6]
eval 'set ytics '.ytics6
set ylabel 'first blocking /dev/urandom read returned (from kernel start, log)'
set title "No RDRAND (qemu64), with and without a usable cycle counter: ".clock."\n".caption
set bmargin at screen 0.15
set key at screen 0.5, screen 0.02 center bottom horizontal opaque box font ',8'
eval 'plot '.nocounter_guest.", 750 with lines dt 3 lc rgb '#aa0000' title '750 ms'"

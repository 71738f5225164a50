# One boot's timeline: kernel start, init, the probe's reads, every traced
# kernel read by process name, CRNG ready, systemd finished.
load 'plots/style.gp'
dat = datadir.'/timeline.dat'
set title "One boot: ".boot_label."\n".caption
set xlabel 'time from kernel start (ms, guest clock)'
unset ytics
set yrange [timeline_rows:-1]
set key outside right top
set arrow 1 from ready_ms, graph 0 to ready_ms, graph 1 nohead lw 2 lc rgb '#aa0000'
set label 1 'CRNG ready' at ready_ms, graph 1 offset 0.5,-1 tc rgb '#aa0000'
plot dat using 2:1:($2):($2+$3):($1-0.3):($1+0.3) with boxxyerror fill solid 0.6 lc rgb '#4477aa' title 'read (probe or traced)', \
     '' using 2:1:4 with labels left offset 0.5,0 font ',8' notitle, \
     '' using ($5==0 ? $2 : NaN):1 with points pt 5 lc rgb '#000000' title 'boot event'
